import { Button, Upload } from 'antd';
import { CameraOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** Photos chosen for a step's entry (up to `max`), sent after the entry is written. Its form item carries the label ("Photos (up to 3)"). */
export function PhotoPicker({ photos, onChange, max, testId }: { photos: File[]; onChange: (photos: File[]) => void; max: number; testId: string }) {
  const { t } = useTranslation();
  return (
    <Upload
      accept="image/jpeg,image/png,image/webp,image/heic"
      listType="picture"
      multiple
      maxCount={max}
      fileList={photos.map((p, i) => ({ uid: String(i), name: p.name, status: 'done' as const, originFileObj: p as never }))}
      beforeUpload={(file) => {
        onChange([...photos, file].slice(0, max));
        return false;
      }}
      onRemove={(file) => onChange(photos.filter((_, i) => String(i) !== file.uid))}
    >
      {photos.length < max && <Button icon={<CameraOutlined />} data-testid={testId}>{t('common.addPhoto')}</Button>}
    </Upload>
  );
}
