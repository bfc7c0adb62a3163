import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { projectApi } from '../../api/projects.ts';
import { useSession } from '../../stores/session.ts';

/**
 * The project a leak screen shows: the current project of the session, else the first one that
 * monitors water (leak surveys are on water networks).
 */
export function useSurveyProject() {
  const enterpriseID = useSession((s) => s.enterpriseID);
  const sessionProject = useSession((s) => s.projectID);
  const [projectId, setProjectId] = useState<number | undefined>(sessionProject ?? undefined);
  const projects = useQuery({ queryKey: ['projects', enterpriseID, '', undefined], queryFn: () => projectApi.list({}) });
  useEffect(() => {
    const list = projects.data?.result ?? [];
    if (projectId === undefined && list.length) setProjectId((list.find((p) => p.networkTypes.includes('water')) ?? list[0]).id);
  }, [projects.data, projectId]);
  return { projectId, setProjectId, projects };
}
