import DeleteIcon from '@mui/icons-material/Delete';
import DescriptionIcon from '@mui/icons-material/Description';
import { Box, Button, FormHelperText, Stack, Typography } from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { useInput, useNotify, useTranslate } from 'react-admin';
import type { FileRejection } from 'react-dropzone';
import { LEAD_FILES, LEAD_MSG, type LeadFileField } from '../../../shared/schemas/leads';
import { DropZone } from '../../forms/DropZone';
import { dropzoneAccept, fileProblem, formatBytes } from '../../forms/leadForm';
import { requiredMark } from '../../forms/schemaValidator';
import { localise } from '../../i18n/sharedMessages';

export interface FileDropProps {
  /** The form value holding the file (the multipart part's name). */
  source: LeadFileField;
  /** i18n key of the visible label */
  label: string;
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

type ErrorMessage = string | { message?: string; args?: Record<string, unknown> } | undefined;

/**
 * One file of the application (the applicant's picture, the identity document) as a form value, chosen in a
 * DropZone. A file of the wrong type or size is refused here as the server refuses it (LEAD_FILES), with its message
 * under the zone and in a toast; the chosen file shows as a preview (images) or its name, with its size and a Remove
 * button.
 */
export const FileDrop = ({ source, label }: FileDropProps) => {
  const translate = useTranslate();
  const notify = useNotify();
  const rule = LEAD_FILES[source];
  const errorId = useId();
  const { field, fieldState, formState } = useInput({ source, validate: requiredMark });
  // react-admin formats an empty value as ''.
  const file = field.value instanceof File ? field.value : null;
  const [rejection, setRejection] = useState<string | null>(null);
  const preview = useObjectUrl(file);

  const choose = (chosen: File | null) => {
    setRejection(null);
    field.onChange(chosen);
    field.onBlur();
  };
  const refuse = (message: string) => {
    setRejection(message);
    field.onChange(null);
    notify(message, { type: 'error' });
  };

  const name = translate(label);
  // The form's message: a catalogue entry from the validator, or the server's text after a refused submit.
  const shown = fieldState.isTouched || formState.isSubmitted;
  const message = (shown ? fieldState.error?.message : undefined) as ErrorMessage;
  const formMessage =
    typeof message === 'string'
      ? localise(message, translate)
      : message?.message
        ? localise(message.message, translate, message.args)
        : undefined;
  const error = rejection ? localise(rejection, translate) : formMessage;

  return (
    <DropZone
      heading={
        <>
          {name}
          <span aria-hidden="true">&thinsp;*</span>
        </>
      }
      headingLevel="h3"
      name={source}
      inputLabel={translate('app.onboarding.files.input', { name })}
      text={translate('app.onboarding.files.drop')}
      hint={translate('app.onboarding.files.hint', {
        kinds: translate(`app.onboarding.files.kinds.${source}`),
        size: formatBytes(rule.maxBytes),
      })}
      invalid={!!error}
      errorId={error ? errorId : undefined}
      options={{
        accept: dropzoneAccept(source),
        maxSize: rule.maxBytes,
        multiple: false,
        onDrop: (accepted, rejected) => {
          if (rejected.length) return refuse(rejectionMessage(source, rejected[0]));
          const chosen = accepted[0];
          if (!chosen) return;
          const problem = fileProblem(source, chosen);
          if (problem) refuse(problem);
          else choose(chosen);
        },
      }}
    >
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
            onClick={() => choose(null)}
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
    </DropZone>
  );
};
