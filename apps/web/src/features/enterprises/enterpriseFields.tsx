import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { isValidCreditCode } from '@console/contract';
import { formRules } from '../../components/formRules.ts';

/** The profile fields of an enterprise, shared by registration and the profile editor. */
export function EnterpriseProfileFields() {
  const { t } = useTranslation();
  const required = (field: string) => ({ required: true, whitespace: true, message: t('enterprise.field.required', { field: t(`enterprise.field.${field}`) }) });
  return (
    <>
      <Form.Item name="enterpriseName" label={t('enterprise.field.enterpriseName')} rules={[required('enterpriseName')]}>
        <Input maxLength={100} data-testid="field-enterpriseName" />
      </Form.Item>
      <Form.Item
        name="creditCode"
        label={t('enterprise.field.creditCode')}
        rules={[
          required('creditCode'),
          { validator: (_, v) => (!v || isValidCreditCode(String(v).trim().toUpperCase()) ? Promise.resolve() : Promise.reject(new Error(t('enterprise.field.creditCodeInvalid')))) },
        ]}
      >
        <Input maxLength={18} data-testid="field-creditCode" />
      </Form.Item>
      <Form.Item name="contact" label={t('enterprise.field.contact')} rules={[required('contact')]}>
        <Input maxLength={50} data-testid="field-contact" />
      </Form.Item>
      <Form.Item
        name="contactPhone"
        label={t('enterprise.field.contactPhone')}
        rules={[required('contactPhone'), formRules(t).phone[1]]}
      >
        <Input maxLength={11} data-testid="field-contactPhone" />
      </Form.Item>
      <Form.Item name="address" label={t('enterprise.field.address')} rules={[required('address')]}>
        <Input maxLength={200} data-testid="field-address" />
      </Form.Item>
      <Form.Item name="description" label={t('enterprise.field.description')}>
        <Input.TextArea rows={3} maxLength={2000} />
      </Form.Item>
    </>
  );
}
