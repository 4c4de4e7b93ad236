import { type ParseArgsConfig, parseArgs } from 'node:util';

/** A command line the command does not take: its message, then the usage line, exit 2. */
export class UsageError extends Error {}

/** A command's options, strict: an unknown one is a UsageError with node's first sentence (the rest is advice). */
export function readOptions<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, strict: true }).values;
  } catch (error) {
    throw new UsageError((error as Error).message.split(/\.\s/)[0]);
  }
}

/** Runs a command's main: a UsageError exits 2 with the usage line, any other refusal 1, each as one message. */
export function runCommand(main: () => Promise<void>, usage: string) {
  main().catch((error) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\nUsage: ${usage}`);
      process.exit(2);
    }
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
