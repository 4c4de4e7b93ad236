import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Box, Typography } from '@mui/material';
import { type ReactNode, useId } from 'react';
import { type DropzoneOptions, useDropzone } from 'react-dropzone';

export interface DropZoneProps {
  /** The field's visible name, over the zone: the first part of the zone's accessible name. */
  heading: ReactNode;
  headingLevel: 'h2' | 'h3';
  /** The file input's name (the multipart part) and its accessible name. */
  name: string;
  inputLabel: string;
  /** What the zone says (what to do, or the file chosen): the second part of its name. */
  text: ReactNode;
  /** Under the zone: the files it takes, or why a file was refused (`hintIsError`). */
  hint: ReactNode;
  hintIsError?: boolean;
  /** The zone's border turns red and it is announced invalid. */
  invalid: boolean;
  /** The id of a message shown elsewhere that describes the zone too (a form's error). */
  errorId?: string;
  /** react-dropzone's options: what it accepts, the size, and what happens on a drop. */
  options: DropzoneOptions;
  /** Under the hint: the chosen file, its error. */
  children?: ReactNode;
}

/**
 * A file chosen by drag-and-drop or by click/Enter/Space on the zone (react-dropzone), for a form's file (the
 * application's picture and document) and for the import's CSV. The zone is a button named by the field's heading
 * and its own text (so what is read is what is seen); the file input sits beside it, not inside it (no control inside
 * a control), and the dropzone opens it.
 */
export const DropZone = ({
  heading,
  headingLevel,
  name,
  inputLabel,
  text,
  hint,
  hintIsError = false,
  invalid,
  errorId,
  options,
  children,
}: DropZoneProps) => {
  const ids = { heading: useId(), drop: useId(), hint: useId() };
  const { getRootProps, getInputProps, isDragActive } = useDropzone(options);
  return (
    <Box>
      <Typography id={ids.heading} component={headingLevel} variant="subtitle2" sx={{ mb: 0.5 }}>
        {heading}
      </Typography>
      <input {...getInputProps({ name })} aria-label={inputLabel} />
      <Box
        {...getRootProps({
          'aria-labelledby': `${ids.heading} ${ids.drop}`,
          'aria-describedby': errorId ? `${ids.hint} ${errorId}` : ids.hint,
          'aria-invalid': invalid,
        })}
        role="button"
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: invalid ? 'error.main' : isDragActive ? 'primary.main' : 'divider',
          borderRadius: 1,
          p: 2,
          cursor: 'pointer',
          textAlign: 'center',
          bgcolor: isDragActive ? 'action.hover' : 'transparent',
          '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid' },
        }}
      >
        <UploadFileIcon color="action" />
        <Typography id={ids.drop} variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {text}
        </Typography>
      </Box>
      <Typography id={ids.hint} variant="caption" color={hintIsError ? 'error' : 'text.secondary'}>
        {hint}
      </Typography>
      {children}
    </Box>
  );
};
