import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { onDatabaseBack } from '../api/databaseState.ts';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

/** The console pages' server data cache (React Query), one for the whole session. */
export default function QueryScope() {
  // What failed while the database was away is read again once it is back.
  useEffect(() => onDatabaseBack(() => void queryClient.invalidateQueries()), []);
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
