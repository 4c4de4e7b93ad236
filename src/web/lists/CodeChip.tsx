import { Chip, type ChipProps } from '@mui/material';
import { type EnumGroup, useEnumText } from '../i18n/enums';

/** A status or type code as a chip, named in the chosen language. */
export const CodeChip = ({
  group,
  code,
  ...props
}: { group: EnumGroup; code: unknown } & Omit<ChipProps, 'label'>) => {
  const text = useEnumText();
  if (code === null || code === undefined || code === '') return null;
  return <Chip size="small" variant="outlined" label={text(group, code)} {...props} />;
};
