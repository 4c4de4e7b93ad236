import { Alert } from '@mui/material';
import { MSG } from '../../shared/messages';

/** What a role sees on a screen the role table does not give it (instead of a request the server would refuse). */
export const AccessDenied = () => (
  <Alert severity="error" sx={{ mt: 2 }}>
    {MSG.forbidden}
  </Alert>
);
