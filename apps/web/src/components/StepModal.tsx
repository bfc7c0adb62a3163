import { useState, type ReactNode } from 'react';
import { Grid, Modal, message } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../api/http.ts';

/**
 * Saving a step: busy while `work` runs, the server's message (what `work` answers) on success and
 * then `after` (close the form, refresh), the error's on failure.
 */
export function useStepSaving(after: () => Promise<unknown> | void) {
  const [saving, setSaving] = useState(false);
  const save = async (work: () => Promise<string>) => {
    setSaving(true);
    try {
      message.success(await work());
      await after();
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };
  return { saving, save };
}

/** The form of one workflow step (a case's, an area's, an alert's): save or cancel; full width on a phone. */
export function StepModal({ open, title, saving, onCancel, onSave, saveTestId, children }: { open: boolean; title: string; saving: boolean; onCancel: () => void; onSave: () => void; saveTestId: string; children: ReactNode }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  return (
    <Modal
      open={open}
      title={title}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      width={screens.md ? 520 : '100%'}
      onCancel={onCancel}
      onOk={onSave}
      destroyOnHidden
      okButtonProps={{ 'data-testid': saveTestId } as never}
    >
      {children}
    </Modal>
  );
}
