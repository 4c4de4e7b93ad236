import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useState } from 'react';
import { SelectInput, TextInput } from 'react-admin';
import { FormDialog } from '../../src/web/forms/FormDialog';
import { renderInAdmin } from './helpers';

/** A button that opens the dialog, as the lists' Add and Edit buttons do. */
const Opener = ({
  children,
  onSubmit = vi.fn(),
  dismissable = true,
}: {
  children: ReactNode;
  onSubmit?: (values: Record<string, unknown>) => unknown;
  dismissable?: boolean;
}) => {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <FormDialog
        open={open}
        onClose={dismissable ? () => setOpen(false) : undefined}
        title="app.states.createTitle"
        submitLabel="app.list.create"
        onSubmit={onSubmit}
      >
        {children}
      </FormDialog>
    </>
  );
};

const open = async (ui: ReactNode) => {
  const user = userEvent.setup();
  render(renderInAdmin(ui));
  await user.click(screen.getByRole('button', { name: 'Open' }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'Create New State' }) };
};

describe('FormDialog', () => {
  it('puts the focus on the first field when it opens, not on the dialog', async () => {
    const { dialog } = await open(
      <Opener>
        <TextInput source="name" label="Name" />
        <TextInput source="code" label="Code" />
      </Opener>,
    );
    await waitFor(() => expect(within(dialog).getByLabelText('Name')).toHaveFocus());
    expect(dialog).not.toHaveFocus();
  });

  it('focuses a select when it is the first field, and skips a disabled one', async () => {
    const { dialog } = await open(
      <Opener>
        <TextInput source="fixed" label="Fixed" disabled />
        <SelectInput
          source="type"
          label="Type"
          choices={[
            { id: 'A', name: 'Alpha' },
            { id: 'B', name: 'Beta' },
          ]}
        />
        <TextInput source="name" label="Name" />
      </Opener>,
    );
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Type' })).toHaveFocus());
  });

  it('Cancel and Escape close it; what was typed is gone when it opens again', async () => {
    const { user, dialog } = await open(
      <Opener>
        <TextInput source="name" label="Name" />
      </Opener>,
    );
    await user.type(within(dialog).getByLabelText('Name'), 'goa');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const again = await screen.findByRole('dialog', { name: 'Create New State' });
    expect(within(again).getByLabelText('Name')).toHaveValue('');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('without onClose it has no Cancel and Escape leaves it open', async () => {
    const { user, dialog } = await open(
      <Opener dismissable={false}>
        <TextInput source="name" label="Name" />
      </Opener>,
    );
    expect(within(dialog).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Create New State' })).toBeInTheDocument();
  });

  it('submits the values, with the submit button disabled while they are sent', async () => {
    let answer: () => void = () => undefined;
    const onSubmit = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          answer = resolve;
        }),
    );
    const { user, dialog } = await open(
      <Opener onSubmit={onSubmit}>
        <TextInput source="name" label="Name" />
      </Opener>,
    );
    await user.type(within(dialog).getByLabelText('Name'), 'goa{Enter}');
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: 'goa' }, expect.anything()));
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled();
    answer();
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Create' })).toBeEnabled());
  });
});
