import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { RecoverForm } from './RecoverForm.tsx';

/** The password recovery dialog of the sign-in page. */
export default function RecoverDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={t('user.recover.title')} footer={null} onCancel={onClose} destroyOnHidden>
      <RecoverForm onDone={onClose} />
    </Modal>
  );
}
