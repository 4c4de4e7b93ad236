// The command lines of the project's commands (seed:scale, the benches): read strictly, refused in one line.
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
