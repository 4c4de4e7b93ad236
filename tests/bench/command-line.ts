// The command lines of the project's bench tools (seed:scale, the benches): read strictly, refused in one line.
import { type ParseArgsConfig, parseArgs } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * A command's options. An unknown option, a missing value or a stray argument throws, with the first sentence of
 * node's message (what follows is advice on positionals, which no command here takes).
 */
export function readOptions<const O extends Options>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new Error((error as Error).message.split(/\.\s/)[0]);
  }
}

/** Prints a refused command line with the command's usage and exits 2, before the command has done anything. */
export function refuseCommandLine(error: unknown, usage: string): never {
  console.error(`${(error as Error).message}\nUsage: ${usage}`);
  process.exit(2);
}

// The command line every benchmark with engines takes: `--quick` and `--engine pglite|postgres`.
export const ENGINES = ['postgres', 'pglite'] as const;

/** Its options; anything else is refused with `usage`, exit 2, before anything runs. */
export function benchArgs(
  argv: string[],
  usage: string,
): { quick: boolean; only?: (typeof ENGINES)[number] } {
  try {
    const values = readOptions(argv, { quick: { type: 'boolean' }, engine: { type: 'string' } });
    const only = ENGINES.find((engine) => engine === values.engine);
    if (values.engine !== undefined && !only)
      throw new Error(`--engine must be pglite or postgres, not '${values.engine}'`);
    return { quick: values.quick === true, only };
  } catch (error) {
    return refuseCommandLine(error, usage);
  }
}
