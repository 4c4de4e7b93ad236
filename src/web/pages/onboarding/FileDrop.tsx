import DeleteIcon from '@mui/icons-material/Delete';
import DescriptionIcon from '@mui/icons-material/Description';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Box, Button, FormHelperText, Stack, Typography } from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { useTranslate } from 'react-admin';
import { type FileRejection, useDropzone } from 'react-dropzone';
import { LEAD_FILES, LEAD_MSG, type LeadFileField } from '../../../shared/schemas/leads';
import { dropzoneAccept, fileProblem, formatBytes } from './leadForm';

export interface FileDropProps {
  field: LeadFileField;
  /** i18n key of the visible label */
  label: string;
  file: File | null;
  onChange: (file: File | null) => void;
  /** A message to show (missing after a submit, or the server's refusal). */
  error?: string;
  /** Called with the client-side refusal of a chosen file (wrong type, too large). */
  onReject: (message: string) => void;
}

/** An object URL for an image file while it is shown; revoked when the file changes or the view goes. */
const useObjectUrl = (file: File | null) => {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file?.type.startsWith('image/')) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
};

const rejectionMessage = (field: LeadFileField, rejection: FileRejection): string => {
  const codes = rejection.errors.map((e) => e.code);
  if (codes.includes('file-invalid-type')) return LEAD_MSG.fileType(field);
  if (codes.includes('file-too-large')) return LEAD_MSG.fileTooLarge(field);
  return fileProblem(field, rejection.file) ?? LEAD_MSG.fileType(field);
};

/**
 * One file of the application (the applicant's picture, the identity document), chosen by drag-and-drop or by
 * click/Enter/Space on the zone (react-dropzone). Types and sizes are checked here as the server checks them
 * (LEAD_FILES); the chosen file shows as a preview (images) or its name, with its size and a Remove button.
 */
export const FileDrop = ({ field, label, file, onChange, error, onReject }: FileDropProps) => {
  const translate = useTranslate();
  const rule = LEAD_FILES[field];
  const hintId = useId();
  const errorId = useId();
  const preview = useObjectUrl(file);
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    accept: dropzoneAccept(field),
    maxSize: rule.maxBytes,
    multiple: false,
    onDrop: (accepted, rejected) => {
      if (rejected.length) {
        onReject(rejectionMessage(field, rejected[0]));
        return;
      }
      const chosen = accepted[0];
      if (!chosen) return;
      const problem = fileProblem(field, chosen);
      if (problem) onReject(problem);
      else onChange(chosen);
    },
  });
  const name = translate(label);
  const describedBy = [hintId, error ? errorId : null].filter(Boolean).join(' ');

  return (
    <Box>
      <Typography component="h3" variant="subtitle2" sx={{ mb: 0.5 }}>
        {name}
      </Typography>
      <Box
        {...getRootProps({
          'aria-label': translate('app.onboarding.files.choose', { name }),
          'aria-describedby': describedBy,
          'aria-invalid': !!error,
        })}
        role="button"
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: error ? 'error.main' : isDragActive ? 'primary.main' : 'divider',
          borderRadius: 1,
          p: 2,
          cursor: 'pointer',
          textAlign: 'center',
          bgcolor: isDragActive ? 'action.hover' : 'transparent',
          '&:focus-visible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid' },
        }}
      >
        <input
          {...getInputProps({ name: field })}
          aria-label={translate('app.onboarding.files.input', { name })}
        />
        <UploadFileIcon color="action" />
        <Typography variant="body2">{translate('app.onboarding.files.drop')}</Typography>
        <Typography id={hintId} variant="caption" color="text.secondary">
          {translate('app.onboarding.files.hint', {
            kinds: rule.kinds,
            size: formatBytes(rule.maxBytes),
          })}
        </Typography>
      </Box>
      {file && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mt: 1 }}>
          {preview ? (
            <Box
              component="img"
              src={preview}
              alt={translate('app.onboarding.files.preview', { name })}
              sx={{
                width: 72,
                height: 72,
                objectFit: 'cover',
                borderRadius: 1,
                border: 1,
                borderColor: 'divider',
              }}
            />
          ) : (
            <DescriptionIcon color="action" fontSize="large" />
          )}
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
              {file.name}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {formatBytes(file.size)}
            </Typography>
          </Box>
          <Button
            size="small"
            color="error"
            startIcon={<DeleteIcon />}
            onClick={() => onChange(null)}
            aria-label={translate('app.onboarding.files.remove', { name })}
          >
            {translate('app.onboarding.files.removeShort')}
          </Button>
        </Stack>
      )}
      {error && (
        <FormHelperText id={errorId} error role="alert" sx={{ mx: 0 }}>
          {error}
        </FormHelperText>
      )}
    </Box>
  );
};
