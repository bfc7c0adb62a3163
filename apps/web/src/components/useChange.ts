import { message } from 'antd';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { Envelope } from '@console/contract';
import { errorMessage } from '../api/http.ts';

/**
 * A change sent to the server. On success: a toast (`success`, or the server's own message), the
 * queries under `invalidate` refetch, then `onDone`. On failure: the server's message.
 */
export function useChange<V, R>(
  mutationFn: (variables: V) => Promise<Envelope<R>>,
  options: { invalidate?: QueryKey; success?: string; onDone?: (response: Envelope<R>) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (response) => {
      message.success(options.success ?? response.message);
      if (options.invalidate) void queryClient.invalidateQueries({ queryKey: options.invalidate });
      options.onDone?.(response);
    },
    onError: (error) => message.error(errorMessage(error)),
  });
}
