import { useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert } from 'antd';
import { EyeInvisibleOutlined, EyeOutlined, LockOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorMessage, HttpError } from '../../api/http.ts';
import { GuardedButton } from '../../components/GuardedButton.tsx';
import { useSession } from '../../stores/session.ts';
import { greetingPeriod } from '../../utils/greeting.ts';
import { notify } from '../../utils/notify.ts';
import { later, useOpenedOnce } from '../../components/later.tsx';

// The recover dialog's code loads when it is first opened, not with the sign-in page.
const RecoverDialog = later(() => import('./RecoverDialog.tsx').then((m) => m.default));

type Field = 'username' | 'password';

/** One sign-in input with the reason it is refused under it (described by it for screen readers). */
/**
 * One sign-in input with its icon (and, for the password, the show/hide eye), drawn like antd's
 * large input: antd's Input brings TextArea, Search and their styles, more than this whole page.
 */
function LoginInput({ field, icon, error, ...input }: { field: Field; icon: ReactNode; error: string | null } & InputHTMLAttributes<HTMLInputElement>) {
  const [shown, setShown] = useState(false);
  const password = field === 'password';
  return (
    <span className={`login-input${error ? ' login-input-error' : ''}`}>
      <span className="login-input-icon">{icon}</span>
      {/* Named for screen readers after the placeholder is gone (typed over). */}
      <input aria-label={input.placeholder} {...input} type={password && !shown ? 'password' : 'text'} aria-invalid={Boolean(error)} aria-describedby={`login-${field}-error`} />
      {password && (
        <span className="login-input-icon login-input-eye" role="button" tabIndex={-1} aria-label={shown ? 'hide' : 'show'} onClick={() => setShown((v) => !v)}>
          {shown ? <EyeOutlined /> : <EyeInvisibleOutlined />}
        </span>
      )}
    </span>
  );
}

function LoginField({ field, error, children }: { field: Field; error: string | null; children: ReactNode }) {
  return (
    <div className="login-field">
      {children}
      {error && (
        <div className="login-field-error" role="alert" id={`login-${field}-error`}>
          {error}
        </div>
      )}
    </div>
  );
}

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  // /user/recover (and its link) opens the "forgot password" dialog here.
  const [recovering, setRecovering] = useState(params.get('recover') === '1');
  const recoverOpened = useOpenedOnce(recovering);

  // Two required fields, checked here: antd's Form (and the tooltip and validator code it brings)
  // would weigh more than the rest of the page.
  const [values, setValues] = useState({ username: '', password: '' });
  const [checked, setChecked] = useState(false);
  const problems = {
    username: values.username.trim() ? null : t('user.login.usernameRequired'),
    password: values.password ? null : t('user.login.passwordRequired'),
  };
  const change = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setError(null);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (!problems.username && !problems.password) void submit(values);
  };
  const shown = (field: Field) => (checked ? problems[field] : null);

  const submit = async ({ username, password }: { username: string; password: string }) => {
    setLoading(true);
    setError(null);
    try {
      const info = await useSession.getState().login(username.trim(), password);
      const redirect = params.get('redirect');
      // The crew's phone view is a page of its own: loaded, not routed to.
      if (redirect?.startsWith('/m/')) return window.location.assign(redirect);
      navigate(redirect && redirect.startsWith('/') && !redirect.startsWith('//') ? redirect : '/project/list');
      // Greet by the hour once the console shows.
      setTimeout(() => {
        notify.success({
          // Below the header, so its controls stay within reach while the greeting shows.
          placement: 'bottomRight',
          message: `${t('user.login.welcome')} ${info.realname}`,
          description: t('user.login.greetingText', { greeting: t(`user.login.greeting.${greetingPeriod()}`) }),
        });
      }, 1000);
    } catch (failure) {
      setError(failure instanceof Error && !(failure instanceof HttpError) ? failure.message || t('user.login.failed') : errorMessage(failure));
    } finally {
      setLoading(false);
    }
  };

  return (
    <div data-testid="login-page">
      <div className="login-tab" role="heading" aria-level={2}>
        <span>{t('user.login.tab')}</span>
      </div>
      <form name="login" onSubmit={onSubmit} noValidate>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 24 }} data-testid="login-error" />}
        <LoginField field="username" error={shown('username')}>
          <LoginInput
            field="username"
            error={shown('username')}
            icon={<UserOutlined />}
            placeholder={t('user.login.username')}
            autoComplete="username"
            value={values.username}
            onChange={(e) => change('username', e.target.value)}
            data-testid="login-username"
          />
        </LoginField>
        <LoginField field="password" error={shown('password')}>
          <LoginInput
            field="password"
            error={shown('password')}
            icon={<LockOutlined />}
            placeholder={t('user.login.password')}
            autoComplete="current-password"
            value={values.password}
            onChange={(e) => change('password', e.target.value)}
            data-testid="login-password"
          />
        </LoginField>
        <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 24 }}>
          <a onClick={() => setRecovering(true)} data-testid="login-forgot">
            {t('user.login.forgot')}
          </a>
          <Link to="/user/register" data-testid="login-register">
            {t('user.login.register')}
          </Link>
        </div>
        <GuardedButton type="primary" size="large" htmlType="submit" block loading={loading} data-testid="login-submit">
          {t('user.login.submit')}
        </GuardedButton>
      </form>
      {recoverOpened && <RecoverDialog open={recovering} onClose={() => setRecovering(false)} />}
    </div>
  );
}
