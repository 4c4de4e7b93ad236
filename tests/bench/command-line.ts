// The command line every benchmark with engines takes: `--quick` and `--engine pglite|postgres`.
import { parseArgs } from 'node:util';

export const ENGINES = ['postgres', 'pglite'] as const;

/** Its options; anything else is refused with `usage`, exit 2, before anything runs. */
export function benchArgs(
  argv: string[],
  usage: string,
): { quick: boolean; only?: (typeof ENGINES)[number] } {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { quick: { type: 'boolean' }, engine: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    });
    const only = ENGINES.find((engine) => engine === values.engine);
    if (values.engine !== undefined && !only)
      throw new Error(`--engine must be pglite or postgres, not '${values.engine}'`);
    return { quick: values.quick === true, only };
  } catch (error) {
    // Node's message goes on with advice on positionals; its first sentence says what is wrong.
    console.error(`${(error as Error).message.split(/\.\s/)[0]}\nUsage: ${usage}`);
    process.exit(2);
  }
}
