import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Alert, Box, Button, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { ResourceContextProvider, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { LeadType } from '../../../shared/schemas/leads';
import { localise } from '../../i18n/sharedMessages';
import { PublicBar } from '../../layout/PublicBar';
import { LeadForm } from './LeadForm';

export { ONBOARDING_PATHS } from './paths';

/**
 * Seed sections 2, 3, 5 and 8: the public onboarding form of a retailer or a distributor (no sidebar). After a
 * successful submit the thank-you text shows as a toast and on the page, and the form starts again empty.
 */
export const Onboarding = ({ leadType }: { leadType: LeadType }) => {
  const translate = useTranslate();
  const [formKey, setFormKey] = useState(0);
  const [thanks, setThanks] = useState<string | null>(null);
  const thanksRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!thanks) return;
    window.scrollTo(0, 0);
    thanksRef.current?.focus();
  }, [thanks]);

  const kind = leadType === 'RETAILER' ? 'retailer' : 'distributor';
  return (
    <ResourceContextProvider value="leads">
      <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
        <PublicBar
          start={
            <Button component={RouterLink} to="/welcome" startIcon={<ArrowBackIcon />}>
              {translate('app.onboarding.backToWelcome')}
            </Button>
          }
        />
        <Box component="main" sx={{ maxWidth: 960, mx: 'auto', px: { xs: 2, md: 4 }, pb: 4 }}>
          <Typography sx={{ fontWeight: 700, fontSize: 24, color: 'primary.main', mb: 2 }}>
            {translate('app.title')}
          </Typography>
          <Typography component="h1" variant="h4" sx={{ fontWeight: 600 }}>
            {translate(`app.onboarding.${kind}Title`)}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {translate('app.onboarding.subtext')}
          </Typography>
          {thanks && (
            <Alert
              ref={thanksRef}
              tabIndex={-1}
              severity="success"
              role="status"
              sx={{ mb: 3 }}
              onClose={() => setThanks(null)}
            >
              {localise(thanks, translate)}
            </Alert>
          )}
          <LeadForm
            key={formKey}
            leadType={leadType}
            onSubmitted={(message) => {
              setThanks(message);
              setFormKey((key) => key + 1);
            }}
          />
        </Box>
      </Box>
    </ResourceContextProvider>
  );
};
