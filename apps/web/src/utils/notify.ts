import type { ArgsProps } from 'antd/es/notification';

type Kind = 'success' | 'info' | 'warning' | 'error';

/**
 * antd's notification, loaded with the first notice: the sign-in page and the console's shell
 * show notices only now and then, so they do not carry its code up front.
 */
function notice(kind: Kind) {
  return (args: ArgsProps) => {
    void import('antd/es/notification').then(({ default: notification }) => notification[kind](args));
  };
}

export const notify: Record<Kind, (args: ArgsProps) => void> = {
  success: notice('success'),
  info: notice('info'),
  warning: notice('warning'),
  error: notice('error'),
};
