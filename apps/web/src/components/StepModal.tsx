import type { ReactNode } from 'react';
import { Grid, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

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
