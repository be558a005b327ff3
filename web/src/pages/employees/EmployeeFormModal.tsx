import { Anchor, Modal, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import type { Employee, EmployeeInput } from '../../api/types';
import { fieldError } from '../../components/form-errors';
import { invalidateAccount } from '../../components/invalidate';
import { SaveForm } from '../../components/SaveForm';
import { useOnOpen } from '../../components/use-on-open';
import { accountPath } from '../../layout/account-context';

const FIELDS = ['first_name', 'last_name', 'email'] as const;
const EMPTY: EmployeeInput = { first_name: '', last_name: '', email: '' };

interface EmployeeFormModalProps {
  accountId: number;
  opened: boolean;
  onClose: () => void;
  /** The employee to edit; none to add one. */
  employee: Employee | null;
}

/** "Add employee" / "Edit employee": first name, last name, email; shows the groups when editing. */
export function EmployeeFormModal({ accountId, opened, onClose, employee }: EmployeeFormModalProps) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState<EmployeeInput>(EMPTY);
  const detail = useQuery({
    queryKey: ['employee', accountId, employee?.id],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/employees/{employeeId}', {
          params: { path: { accountId, employeeId: employee?.id ?? 0 } },
        }),
      ),
    enabled: opened && employee !== null,
  });
  const save = useMutation({
    mutationFn: () => {
      const input = { ...values, email: values.email.trim() };
      return employee
        ? call(
            api.PATCH('/accounts/{accountId}/employees/{employeeId}', {
              params: { path: { accountId, employeeId: employee.id } },
              body: input,
            }),
          )
        : call(api.POST('/accounts/{accountId}/employees', { params: { path: { accountId } }, body: input }));
    },
    onSuccess: (saved) => {
      invalidateAccount(queryClient, accountId, 'employees', 'employee', 'members', 'overview');
      const name = `${saved.first_name} ${saved.last_name}`;
      notifications.show({ color: 'teal', message: employee ? `Saved ${name}` : `Added ${name}` });
      onClose();
    },
  });

  useOnOpen(opened, () => {
    save.reset();
    setValues(
      employee
        ? { first_name: employee.first_name, last_name: employee.last_name, email: employee.email }
        : EMPTY,
    );
  }, [employee]);

  const field = (name: keyof EmployeeInput, label: string, props: Record<string, unknown> = {}) => (
    <TextInput
      label={label}
      required
      value={values[name]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setValues((v) => ({ ...v, [name]: value }));
      }}
      error={fieldError(save.error, name)}
      {...props}
    />
  );
  const groups = detail.data?.groups;

  return (
    <Modal opened={opened} onClose={onClose} title={employee ? 'Edit employee' : 'Add employee'}>
      <SaveForm save={save} fields={FIELDS} fieldLabels={FORM_FIELDS.employee.names} onCancel={onClose}>
        {field('first_name', 'First name', { 'data-autofocus': true, autoComplete: 'off' })}
        {field('last_name', 'Last name', { autoComplete: 'off' })}
        {field('email', 'Email', { type: 'email', autoComplete: 'off' })}
        {groups && (
          <Text size="sm" c="dimmed">
            {groups.length === 0 ? 'Not a member of any group.' : 'Member of: '}
            {groups.map((g, i) => (
              <span key={g.id}>
                {i > 0 && ', '}
                <Anchor
                  component={Link}
                  to={accountPath(accountId, 'groups', g.id)}
                  size="sm"
                  underline="always"
                  onClick={onClose}
                >
                  {g.name}
                </Anchor>
              </span>
            ))}
          </Text>
        )}
      </SaveForm>
    </Modal>
  );
}
