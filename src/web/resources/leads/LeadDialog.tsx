import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  Stack,
  Typography,
} from '@mui/material';
import { Fragment, useId, useState } from 'react';
import { type Identifier, type RaRecord, useGetOne, usePermissions, useTranslate } from 'react-admin';
import { titleCase } from '../../../shared/format';
import { can } from '../../../shared/roles';
import { LEAD_JSON_PARTS, type LeadJsonPart } from '../../../shared/schemas/leads';
import { emptyLeadForm } from '../../forms/leadForm';
import { type EnumGroup, useEnumText } from '../../i18n/enums';
import { useFormat } from '../../i18n/format';
import { useNotifyError } from '../../layout/useNotifyError';
import { ApproveDialog, RejectDialog } from './DecisionDialogs';
import { LeadStatusChip } from './LeadChips';
import { LeadFile } from './LeadFile';

/** Location ids inside the sections, and the resource that names them. */
const LOCATION_REFS: Record<string, string> = {
  stateId: 'states',
  districtId: 'districts',
  tehsilId: 'tehsils',
  permanentStateId: 'states',
  permanentDistrictId: 'districts',
  permanentTehsilId: 'tehsils',
};

/** The name of a state, district or tehsil id (public lookups, by `_id`). */
const LocationName = ({ reference, id }: { reference: string; id: string }) => {
  const { data } = useGetOne(reference, { id }, { enabled: !!id });
  return <>{data ? titleCase(data.name) : ''}</>;
};

/** Field order of each section: the form's, which follows seed section 3. */
const SECTION_FIELDS = Object.fromEntries(
  LEAD_JSON_PARTS.map((part) => [part, Object.keys(emptyLeadForm()[part])]),
) as Record<LeadJsonPart, string[]>;
/** Names show in title case (seed section 2), in details as in lists. */
const NAME_FIELDS = new Set(['name', 'establishmentName', 'bankName']);
/** Choices show in the chosen language. */
const CODE_FIELDS: Record<string, EnumGroup> = {
  gender: 'gender',
  ownershipType: 'ownership',
  type: 'identityDocument',
};

const Section = ({ part, values }: { part: LeadJsonPart; values: Record<string, unknown> }) => {
  const translate = useTranslate();
  const codeText = useEnumText();
  return (
    <Box component="section" aria-label={translate(`app.onboarding.sections.${part}`)}>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {translate(`app.onboarding.sections.${part}`)}
      </Typography>
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
          columnGap: 2,
          rowGap: 0.5,
          m: 0,
          '& dt': { color: 'text.secondary' },
          '& dd': { m: 0, wordBreak: 'break-word' },
        }}
      >
        {SECTION_FIELDS[part].map((field) => {
          const value = values?.[field];
          const reference = LOCATION_REFS[field];
          return (
            <Fragment key={field}>
              <dt>{translate(`resources.leads.fields.${part}.${field}`)}</dt>
              <dd>
                {reference && typeof value === 'string' ? (
                  <LocationName reference={reference} id={value} />
                ) : value === undefined || value === null ? (
                  ''
                ) : CODE_FIELDS[field] ? (
                  codeText(CODE_FIELDS[field], value)
                ) : NAME_FIELDS.has(field) ? (
                  titleCase(value)
                ) : (
                  String(value)
                )}
              </dd>
            </Fragment>
          );
        })}
      </Box>
    </Box>
  );
};

const Summary = ({ lead }: { lead: RaRecord }) => {
  const translate = useTranslate();
  const codeText = useEnumText();
  const format = useFormat();
  const rows: [string, React.ReactNode][] = [
    ['resources.leads.fields.leadType', codeText('leadType', lead.leadType)],
    ['resources.leads.fields.status', <LeadStatusChip key="status" status={lead.status} />],
    ['resources.leads.fields.mobile', lead.mobile],
    ['resources.leads.fields.createdAt', format.date(lead.createdAt)],
  ];
  if (lead.decidedAt) rows.push(['resources.leads.fields.decidedAt', format.date(lead.decidedAt)]);
  if (lead.rejectReason) rows.push(['resources.leads.fields.rejectReason', lead.rejectReason]);
  if (lead.establishmentName)
    rows.splice(1, 0, ['resources.leads.fields.establishmentName', titleCase(lead.establishmentName)]);
  if (lead.userId) rows.push(['app.leads.userId', lead.userId]);
  return (
    <Stack direction="row" useFlexGap spacing={3} sx={{ flexWrap: 'wrap' }}>
      {rows.map(([label, value]) => (
        <Box key={label}>
          <Typography variant="caption" color="text.secondary" component="div">
            {translate(label)}
          </Typography>
          <Box>{value}</Box>
        </Box>
      ))}
    </Stack>
  );
};

/**
 * One application with every section, the picture and the document. For a NEW application, staff who may
 * decide see Reject, and Approve when they may also create the tier user it becomes (the role table: only
 * ADMIN creates distributors and retailers).
 */
export const LeadDialog = ({ id, onClose }: { id: Identifier | null; onClose: () => void }) => {
  const translate = useTranslate();
  const titleId = useId();
  const { permissions } = usePermissions();
  const [decision, setDecision] = useState<'approve' | 'reject' | null>(null);
  const { data: lead, isPending, error } = useGetOne('leads', { id: id ?? '' }, { enabled: id !== null });
  useNotifyError(error);
  const open = id !== null;
  const applicant = titleCase(lead?.applicantName);
  const isNew = lead?.status === 'NEW';
  const canReject = isNew && can(permissions, 'leads', 'edit');
  const canApprove =
    canReject && can(permissions, lead?.leadType === 'RETAILER' ? 'retailers' : 'distributors', 'create');

  return (
    <>
      <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
        <DialogTitle id={titleId}>
          {lead ? translate('app.leads.detailTitle', { name: applicant }) : translate('app.leads.title')}
        </DialogTitle>
        <DialogContent dividers>
          {open && isPending && <CircularProgress aria-label={translate('app.leads.fileLoading')} />}
          {error && !lead ? <Alert severity="error">{translate('app.leads.loadFailed')}</Alert> : null}
          {lead && (
            <Stack spacing={2}>
              <Summary lead={lead} />
              <Divider />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={4}>
                <LeadFile id={lead.id} field="picture" info={lead.picture} applicant={applicant} />
                <LeadFile id={lead.id} field="document" info={lead.document} applicant={applicant} />
              </Stack>
              {/* The list's row (already cached) lacks the sections until the full record arrives. */}
              {lead.applicantInfo ? (
                LEAD_JSON_PARTS.map((part) => (
                  <Fragment key={part}>
                    <Divider />
                    <Section part={part} values={lead[part]} />
                  </Fragment>
                ))
              ) : (
                <CircularProgress size={20} />
              )}
            </Stack>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 1.5 }}>
          {canReject && (
            <Button color="error" onClick={() => setDecision('reject')}>
              {translate('app.leads.reject')}
            </Button>
          )}
          {canApprove && (
            <Button variant="contained" onClick={() => setDecision('approve')}>
              {translate('app.leads.approve')}
            </Button>
          )}
          <Button onClick={onClose}>{translate('app.leads.close')}</Button>
        </DialogActions>
      </Dialog>
      {lead && (
        <>
          <ApproveDialog lead={lead} open={decision === 'approve'} onClose={() => setDecision(null)} />
          <RejectDialog lead={lead} open={decision === 'reject'} onClose={() => setDecision(null)} />
        </>
      )}
    </>
  );
};
