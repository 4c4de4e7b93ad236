import { Alert } from '@mui/material';
import { useTranslate } from 'react-admin';

/** What a role sees on a screen the role table does not give it (instead of a request the server would refuse). */
export const AccessDenied = () => {
  const translate = useTranslate();
  return (
    <Alert severity="error" sx={{ mt: 2 }}>
      {translate('app.auth.accessDenied')}
    </Alert>
  );
};
