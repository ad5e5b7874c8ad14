import { ClipboardList, LogIn, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { ChecklistDto } from '@domain/schemas/checklist.schema';
import {
  CHECKLIST_ERRORS,
  useAddChecklist,
  useChecklists,
  useEditChecklist,
  useRenewChecklistKey,
} from '@/api/checklists';
import { useRole, useSession } from '@/api/session';
import { RoleHint } from '@/components/ui/role-hint';
import { useWarehouses } from '@/api/warehouses';
import { Button, buttonClass } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Page } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { errorMessages } from '@/lib/api-client';
import { ChecklistCard } from '../components/checklist-card';
import { ChecklistFrame } from '../components/checklist-frame';
import { type ChecklistDraft, ChecklistFormDialog, draftOf } from '../components/checklist-form-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorList } from '@/components/ui/error-list';
import { QueryView } from '@/components/ui/query-view';
import { useDocumentTitle } from '@/lib/use-document-title';

const TITLE = 'Warehouse Checklists Page';

function SignInHint() {
  return (
    <ChecklistFrame>
      <Page title={TITLE}>
        <div className="flex flex-col items-center rounded-xl border border-slate-200 bg-white px-6 py-12 text-center shadow-sm">
          <LogIn className="h-10 w-10 text-slate-300" aria-hidden />
          <p className="mt-3 text-lg font-semibold text-slate-700">Sign in to manage checklists</p>
          <p className="mt-1 max-w-md text-sm text-slate-500">
            Floor staff answer a checklist through its warehouse link and need no account. Listing, adding and
            editing checklists is for signed-in staff.
          </p>
          <Link to={paths.login} className={buttonClass('primary', 'mt-6')}>
            Log In
          </Link>
        </div>
      </Page>
    </ChecklistFrame>
  );
}

function ChecklistsAdmin({ companyId }: { companyId: number }) {
  const checklists = useChecklists();
  // checklist administration is a Manager's; everyone reads the list and its links
  const canManage = useRole().can('manager');
  const warehouses = useWarehouses(companyId);
  const addChecklist = useAddChecklist();
  const editChecklist = useEditChecklist();
  const renewKey = useRenewChecklistKey();
  const [renewing, setRenewing] = useState<ChecklistDto | null>(null);
  const [dialog, setDialog] = useState<{ mode: 'add' } | { mode: 'edit'; checklist: ChecklistDto } | null>(
    null,
  );

  const warehouseOptions = warehouses.data ?? [];
  const mutation = dialog?.mode === 'edit' ? editChecklist : addChecklist;
  const failure = dialog?.mode === 'edit' ? CHECKLIST_ERRORS.edit : CHECKLIST_ERRORS.add;

  function open(next: typeof dialog) {
    addChecklist.reset();
    editChecklist.reset();
    setDialog(next);
  }

  function submit(draft: ChecklistDraft) {
    if (!dialog || draft.warehouse_id === '') return;
    const done = (message: string) => ({
      onSuccess: () => {
        setDialog(null);
        toast.success(message);
      },
    });
    if (dialog.mode === 'add') {
      addChecklist.mutate(
        {
          warehouse_id: draft.warehouse_id,
          description: draft.description,
          tasks: draft.tasks.map((t) => t.text),
        },
        done('Checklist added.'),
      );
      return;
    }
    editChecklist.mutate(
      {
        id: dialog.checklist.id,
        changes: {
          warehouse_id: draft.warehouse_id,
          description: draft.description,
          is_active: draft.is_active,
          tasks: draft.tasks.map((t) => ({ id: t.id, text: t.text, completed: t.completed })),
        },
      },
      done('Checklist saved.'),
    );
  }

  function confirmRenew() {
    if (!renewing) return;
    const name = renewing.warehouseName;
    renewKey.mutate(renewing.id, {
      onSuccess: () => {
        setRenewing(null);
        toast.success(`New fill-in link for ${name}. The old link no longer works.`);
      },
    });
  }

  return (
    <Page
      title={TITLE}
      actions={
        canManage ? (
          <Button onClick={() => open({ mode: 'add' })}>
            <Plus className="h-4 w-4" aria-hidden /> Add New Checklist
          </Button>
        ) : (
          <RoleHint needed="manager">Only a Manager can add or change checklists.</RoleHint>
        )
      }
    >
      <QueryView
        query={checklists}
        loading="Loading checklists..."
        failed={CHECKLIST_ERRORS.fetchAll}
        empty={
          <EmptyState icon={ClipboardList} title="No checklists found.">
            Add a cleaning checklist for one of your warehouses.
          </EmptyState>
        }
      >
        {(all) => (
          <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
            {all.map((checklist) => (
              <li key={checklist.id} className="flex">
                <div className="flex w-full flex-col">
                  <ChecklistCard
                    checklist={checklist}
                    onEdit={canManage ? () => open({ mode: 'edit', checklist }) : undefined}
                    onRenewKey={
                      canManage
                        ? () => {
                            renewKey.reset();
                            setRenewing(checklist);
                          }
                        : undefined
                    }
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryView>

      <ConfirmDialog
        open={renewing !== null}
        onOpenChange={(isOpen) => {
          if (!isOpen && !renewKey.isPending) setRenewing(null);
        }}
        title="New Fill-in Link"
        message={`Issue a new fill-in link for ${renewing?.warehouseName ?? ''}? The current link stops working at once; hand the new one to floor staff.`}
        confirmLabel="Issue new link"
        onConfirm={confirmRenew}
        pending={renewKey.isPending}
      >
        {renewKey.isError && (
          <ErrorList messages={[CHECKLIST_ERRORS.edit, ...errorMessages(renewKey.error)]} />
        )}
      </ConfirmDialog>

      {dialog && (
        <ChecklistFormDialog
          key={dialog.mode === 'edit' ? `edit-${dialog.checklist.id}` : 'add'}
          mode={dialog.mode}
          initial={draftOf(dialog.mode === 'edit' ? dialog.checklist : null)}
          warehouses={warehouseOptions}
          pending={mutation.isPending}
          serverErrors={mutation.isError ? [failure, ...errorMessages(mutation.error)] : []}
          onSubmit={submit}
          onClose={() => setDialog(null)}
          onWarehouseChange={() => mutation.reset()}
        />
      )}
    </Page>
  );
}

/** Spec 2.14: opens signed out too, but then shows only a sign-in hint and loads no data. */
export default function ChecklistsAdminPage() {
  useDocumentTitle('Warehouse Checklists');
  const session = useSession();
  if (!session.data) return <SignInHint />;
  return <ChecklistsAdmin companyId={session.data.companyId} />;
}
