import { Box } from '@mui/material';
import { SelectInput, type SelectInputProps, useResourceContext, useTranslateLabel } from 'react-admin';

/**
 * react-admin's SelectInput, at least as wide as its label. An empty outlined select is react-admin's fixed 160 px
 * with its label laid over it, so "Transaction Type" (and longer Hindi labels) ran under the arrow. The label is
 * laid again, unseen, in the same grid cell (a CSS pseudo-element: no second text in the page or its accessibility
 * tree), so the cell takes the wider of the two in whatever language and font; the select fills the cell (its
 * own `sx`, so it takes none from the caller).
 */
export const FittedSelectInput = (props: Omit<SelectInputProps, 'sx'>) => {
  const resource = useResourceContext(props);
  const label = useTranslateLabel()({ label: props.label, source: props.source, resource });
  return (
    <Box
      data-label={typeof label === 'string' ? label : ''}
      sx={(theme) => ({
        display: 'inline-grid',
        '& > *, &::before': { gridArea: '1 / 1' },
        '&::before': {
          ...theme.typography.body1,
          content: 'attr(data-label)',
          visibility: 'hidden',
          height: 0,
          overflow: 'hidden',
          whiteSpace: 'nowrap',
          // The label's inset on the left; the arrow and its gap on the right (MUI's outlined select).
          paddingLeft: '14px',
          paddingRight: '40px',
        },
      })}
    >
      <SelectInput {...props} sx={{ width: '100%' }} />
    </Box>
  );
};
