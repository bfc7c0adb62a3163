import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { PASSWORD_RULE } from '../utils/passwordStrength.ts';

/**
 * Form rules the sign-in pages share, matching the contract's server-side rules: new passwords
 * are at least 6 letters or digits, phones are mainland mobile numbers, SMS codes 6 digits.
 */
export const formRules = (t: TFunction) => ({
  newPassword: [
    { required: true, message: t('user.register.passwordRequired') },
    { min: PASSWORD_RULE.min, message: t('user.register.passwordTooShort') },
    { max: PASSWORD_RULE.max, message: t('user.register.passwordTooLong') },
    { pattern: PASSWORD_RULE.pattern, message: t('user.register.lettersDigits') },
  ] as FormRule[],
  /** The confirmation must equal the field `of`. */
  confirm: (of: string, required: string, different: string): FormRule[] => [
    { required: true, message: required },
    ({ getFieldValue }) => ({
      validator: (_, value) => (!value || value === getFieldValue(of) ? Promise.resolve() : Promise.reject(new Error(different))),
    }),
  ],
  phone: [
    { required: true, message: t('user.register.phoneRequired') },
    { pattern: /^1[3-9]\d{9}$/, message: t('user.register.phoneInvalid') },
  ] as FormRule[],
  smsCode: [
    { required: true, message: t('user.register.codeRequired') },
    { pattern: /^\d{6}$/, message: t('user.register.codeInvalid') },
  ] as FormRule[],
});
