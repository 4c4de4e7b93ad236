import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useState } from 'react';
import {
  CheckboxGroupInput,
  type RaRecord,
  TextInput,
  useDataProvider,
  useRefresh,
  useTranslate,
  useUpdate,
} from 'react-admin';
import { WEBHOOK_EVENTS } from '../../../shared/constants/notifications';
import { webhookInputSchema } from '../../../shared/schemas/notifications';
import { DecisionDialog } from '../../forms/DecisionDialog';
import { FormDialog } from '../../forms/FormDialog';
import { requiredMark, schemaValidator } from '../../forms/schemaValidator';
import { useSendForm } from '../../forms/useSendForm';
import { enumChoices, useEnumText } from '../../i18n/enums';
import { type Column, col } from '../../lists/columns';
import { ResourceList } from '../../lists/ResourceList';
import { type RowAction, RowActionButton } from '../../lists/RowActions';
import type { AppDataProvider } from '../../providers/dataProvider';

const EventsText = ({ record }: { record: RaRecord }) => {
  const enumText = useEnumText();
  return <>{(record.events as string[]).map((event) => enumText('notificationEvent', event)).join(', ')}</>;
};

export const WEBHOOK_COLUMNS: Column[] = [
  col.text('url'),
  col.text('events', {
    render: (r) => <EventsText record={r} />,
    csv: (r) => (r.events as string[]).join(' '),
  }),
  col.date('createdAt', { hideBelow: 'md' }),
];

const validate = schemaValidator(webhookInputSchema);

/** The endpoint's fields: its URL and the events it wants. */
const WebhookFields = () => (
  <>
    <TextInput source="url" label="resources.webhooks.fields.url" validate={requiredMark} type="url" />
    <CheckboxGroupInput
      source="events"
      label="resources.webhooks.fields.events"
      choices={enumChoices('notificationEvent', WEBHOOK_EVENTS)}
      row={false}
    />
  </>
);

/** The secret of an endpoint just registered: shown once, for the admin to hand to the integrator. */
const SecretDialog = ({ secret, onClose }: { secret: string; onClose: () => void }) => {
  const translate = useTranslate();
  return (
    <Dialog open onClose={onClose} aria-labelledby="webhook-secret-title">
      <DialogTitle id="webhook-secret-title">{translate('app.webhooks.secretTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('app.webhooks.secretText')}</DialogContentText>
        <DialogContentText
          component="p"
          aria-label={translate('app.webhooks.secretTitle')}
          translate="no"
          sx={{ mt: 2, fontFamily: 'monospace', wordBreak: 'break-all', color: 'text.primary' }}
        >
          {secret}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
};

type Open =
  | { kind: 'create' }
  | { kind: 'edit'; record: RaRecord }
  | { kind: 'delete'; record: RaRecord }
  | null;

/**
 * Webhooks (ADMIN, issue 55): the integrators' endpoints and the events each wants. Registering one shows its
 * signing secret once; an endpoint's URL and events can be changed, or it can be deleted.
 */
export const WebhookList = () => {
  const translate = useTranslate();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [open, setOpen] = useState<Open>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [update] = useUpdate();
  const close = () => setOpen(null);

  const create = useSendForm(
    (values) => dataProvider.createWebhook(values as { url: string; events: string[] }),
    'app.webhooks.created',
    (answer) => {
      close();
      refresh();
      setSecret(answer.secret);
    },
  );
  const edit = useSendForm(
    async (values) => {
      if (open?.kind !== 'edit') return {};
      await update(
        'webhooks',
        { id: open.record.id, data: { url: values.url, events: values.events }, previousData: open.record },
        { mutationMode: 'pessimistic', returnPromise: true },
      );
      return {};
    },
    'app.webhooks.updated',
    () => {
      close();
      refresh();
    },
  );

  const actions: RowAction[] = [
    {
      key: 'edit',
      render: (r) => (
        <RowActionButton
          label="app.list.edit"
          ariaLabel={translate('app.list.editRow', { name: r.url })}
          icon={<EditIcon fontSize="small" />}
          onClick={() => setOpen({ kind: 'edit', record: r })}
        />
      ),
    },
    {
      key: 'delete',
      render: (r) => (
        <RowActionButton
          label="app.webhooks.delete"
          ariaLabel={translate('app.webhooks.deleteRow', { url: r.url })}
          icon={<DeleteIcon fontSize="small" />}
          onClick={() => setOpen({ kind: 'delete', record: r })}
        />
      ),
    },
  ];

  return (
    <>
      <ResourceList
        resource="webhooks"
        texts="app.webhooks"
        columns={WEBHOOK_COLUMNS}
        rowActions={actions}
        toolbar={
          <Button startIcon={<AddIcon />} onClick={() => setOpen({ kind: 'create' })}>
            {translate('app.webhooks.create')}
          </Button>
        }
      />
      <FormDialog
        open={open?.kind === 'create'}
        onClose={close}
        title="app.webhooks.createTitle"
        submitLabel="app.webhooks.create"
        defaultValues={{ url: '', events: [] }}
        validate={validate}
        onSubmit={create}
      >
        <WebhookFields />
      </FormDialog>
      {open?.kind === 'edit' && (
        <FormDialog
          open
          onClose={close}
          title="app.webhooks.editTitle"
          submitLabel="app.list.update"
          record={open.record}
          validate={validate}
          onSubmit={edit}
        >
          <WebhookFields />
        </FormDialog>
      )}
      {open?.kind === 'delete' && (
        <DecisionDialog
          open
          onClose={close}
          title="app.webhooks.deleteTitle"
          submitLabel="app.webhooks.delete"
          cancelLabel="app.list.cancel"
          color="error"
          decide={() => dataProvider.deleteWebhook(open.record.id)}
          fallbackMessage="app.webhooks.deleted"
        >
          <DialogContentText>
            {translate('app.webhooks.deleteText', { url: open.record.url })}
          </DialogContentText>
        </DecisionDialog>
      )}
      {secret && <SecretDialog secret={secret} onClose={() => setSecret(null)} />}
    </>
  );
};
