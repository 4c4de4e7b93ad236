// The command line every benchmark with engines takes: `--quick` and `--engine pglite|postgres`.
import { readOptions, refuseCommandLine } from '../../src/server/command-line';

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
