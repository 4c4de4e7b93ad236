import BusinessIcon from '@mui/icons-material/Business';
import StorefrontIcon from '@mui/icons-material/Storefront';
import { Box, Button, Card, CardActionArea, CardContent, Stack, Typography } from '@mui/material';
import type { ComponentType } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { PublicBar } from '../layout/PublicBar';
import { LOGIN_PATH } from '../providers/authProvider';

const JoinCard = ({
  to,
  title,
  text,
  icon: Icon,
}: {
  to: string;
  title: string;
  text: string;
  icon: ComponentType;
}) => (
  <Card sx={{ flex: 1, minWidth: 240 }}>
    <CardActionArea component={RouterLink} to={to} sx={{ height: '100%' }}>
      <CardContent sx={{ p: 3 }}>
        <Box sx={{ color: 'primary.main', mb: 1 }}>
          <Icon />
        </Box>
        <Typography component="h2" variant="h6">
          {title}
        </Typography>
        <Typography color="text.secondary">{text}</Typography>
      </CardContent>
    </CardActionArea>
  </Card>
);

/** Seed section 2: public welcome page, no sidebar. */
export const Welcome = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <PublicBar />
      <Box component="main" sx={{ maxWidth: 760, mx: 'auto', p: { xs: 2, md: 4 } }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 4 }}>
          <Typography sx={{ fontWeight: 700, fontSize: 24, color: 'primary.main' }}>
            {translate('app.title')}
          </Typography>
          <Button component={RouterLink} to={LOGIN_PATH} variant="contained">
            {translate('app.welcome.login')}
          </Button>
        </Stack>
        <Typography component="h1" variant="h4" sx={{ fontWeight: 600 }}>
          {translate('app.welcome.heading')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 4 }}>
          {translate('app.welcome.subtext')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3}>
          <JoinCard
            to="/onboarding/retailer"
            title={translate('app.welcome.retailerTitle')}
            text={translate('app.welcome.retailerText')}
            icon={StorefrontIcon}
          />
          <JoinCard
            to="/onboarding/distributor"
            title={translate('app.welcome.distributorTitle')}
            text={translate('app.welcome.distributorText')}
            icon={BusinessIcon}
          />
        </Stack>
      </Box>
    </Box>
  );
};
