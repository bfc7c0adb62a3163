import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { incidentTitle, type AlertState, type CrewIncident } from '@console/contract';
import { crewApi, Refused, rememberEnterprise, session } from './crewApi.ts';
import { language } from './i18n.ts';
import { MiniMap } from './MiniMap.tsx';
import { cachedIncidents, cacheIncidents, dismiss, enqueue, flush, lastCachedIncidents, newKey, queued, type Pending } from './outbox.ts';
import { compressPhoto } from './photos.ts';
import { distanceM, navigationLinks } from './places.ts';

// Darker than the console's level colours: white on each reads at 4.5:1 or more (WCAG AA) in the sun.
const LEVEL_COLOR: Record<string, string> = { I: '#cf1322', II: '#ad4e00', III: '#876800', IV: '#0958d9' };
/** The state a queued step leads to, shown before the server has it. */
const AFTER: Record<Pending['step'], AlertState | null> = { accept: 'handling', handle: 'handled', note: null };
const PHOTOS_MAX = 3;
const time = (at: string | number) => new Date(at).toLocaleString(undefined, { month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });

function useOnline() {
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

/** The phone's position while the page is open (null until known or when refused). */
function usePosition() {
  const [position, setPosition] = useState<[number, number] | null>(null);
  useEffect(() => {
    if (!navigator.geolocation) return;
    const watch = navigator.geolocation.watchPosition((p) => setPosition([p.coords.longitude, p.coords.latitude]), () => {}, { enableHighAccuracy: true, maximumAge: 30_000 });
    return () => navigator.geolocation.clearWatch(watch);
  }, []);
  return position;
}

/**
 * The crew's phone: the incidents dispatched to them, nearest first, each with its map, pipes,
 * alerts and timeline, navigation in the phone's map app, and the steps they take (accept, report
 * handled with photos, note). What was loaded stays readable offline; steps wait on the phone and
 * go when the network returns, each once.
 */
export function CrewApp() {
  const { t } = useTranslation();
  const online = useOnline();
  const position = usePosition();
  const [enterpriseId, setEnterpriseId] = useState(session().enterpriseId);
  const [incidents, setIncidents] = useState<CrewIncident[] | null>(null);
  const [loadedAt, setLoadedAt] = useState<number | null>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const [openId, setOpenId] = useState<number | null>(null);
  // No answer from the server although the phone says it is online (a basement, a captive portal).
  const [unreachable, setUnreachable] = useState(false);
  const signedIn = Boolean(session().token);

  const reload = useCallback(async () => {
    setPending(await queued());
    if (!enterpriseId) return;
    try {
      const fresh = await crewApi.mine();
      await cacheIncidents(enterpriseId, fresh);
      setIncidents(fresh);
      setLoadedAt(Date.now());
      setUnreachable(false);
    } catch (error) {
      // Offline (no answer): what was loaded stays. Signed out: the sign-in link shows.
      if (!(error instanceof Refused)) setUnreachable(true);
      else if (error.status === 401) setIncidents([]);
    }
  }, [enterpriseId]);

  /** Sends what waits, then loads again: the order the server saw is the order shown. */
  const sync = useCallback(async () => {
    await flush();
    await reload();
  }, [reload]);

  useEffect(() => {
    if (!signedIn || enterpriseId) return;
    // Signed in on the console without choosing an enterprise here: the first verified one, kept
    // for the next start. No answer (reopened offline): the enterprise of the tasks loaded last.
    const choose = (id: string) => {
      if (!id) return;
      rememberEnterprise(id);
      setEnterpriseId(id);
    };
    crewApi.enterprises().then(
      (list) => choose(String(list.find((e) => e.status === 'verified')?.id ?? list[0]?.id ?? '')),
      (error) => {
        if (error instanceof Refused) return;
        setUnreachable(true);
        void lastCachedIncidents().then((cached) => cached && choose(cached.enterpriseId));
      },
    );
  }, [signedIn, enterpriseId]);
  useEffect(() => {
    if (!enterpriseId) return;
    void cachedIncidents(enterpriseId).then((cached) => {
      if (cached) {
        setIncidents((current) => current ?? cached.incidents);
        setLoadedAt((current) => current ?? cached.loadedAt);
      }
    });
    void sync();
  }, [enterpriseId, sync]);
  useEffect(() => {
    if (online) void sync();
  }, [online, sync]);
  // The phone may never say it went offline: while the server does not answer, ask again now and then.
  useEffect(() => {
    if (!unreachable || !online) return;
    const timer = setInterval(() => void sync(), 15_000);
    return () => clearInterval(timer);
  }, [unreachable, online, sync]);

  const sorted = useMemo(() => {
    const list = (incidents ?? []).map((i) => ({ incident: i, distance: position ? distanceM(position, [i.lon, i.lat]) : null }));
    return list.sort((a, b) => (a.distance ?? 0) - (b.distance ?? 0) || (a.incident.deadline ?? '').localeCompare(b.incident.deadline ?? ''));
  }, [incidents, position]);

  const take = async (item: Omit<Pending, 'key' | 'createdAt' | 'photosSent'>) => {
    await enqueue({ ...item, key: newKey(), createdAt: Date.now(), photosSent: 0 });
    setPending(await queued());
    if (navigator.onLine) await sync();
  };

  if (!signedIn)
    return (
      <main className="crew">
        <header className="crew-bar"><h1>{t('title')}</h1></header>
        <section className="crew-empty">
          <p>{t('signIn')}</p>
          <a className="crew-button primary" href="/user/login?redirect=/m/">{t('signInButton')}</a>
        </section>
      </main>
    );

  const open = sorted.find((s) => s.incident.id === openId);
  const waiting = pending.filter((p) => !p.refused);
  const refused = pending.filter((p) => p.refused);
  const banner = (
    <>
      {(!online || unreachable) && <div className="crew-note offline" data-testid="crew-offline">{t('offline', { ago: loadedAt ? time(loadedAt) : t('justNow') })}</div>}
      {waiting.length > 0 && (
        <div className="crew-note waiting" data-testid="crew-waiting">
          {t('waiting', { count: waiting.length })}
          {waiting.some((p) => p.photos.length > p.photosSent) && ` ${t('waitingPhotos', { count: waiting.reduce((n, p) => n + p.photos.length - p.photosSent, 0) })}`}
          {online && <button className="crew-link" onClick={() => void sync()}>{t('sendNow')}</button>}
        </div>
      )}
      {refused.map((p) => (
        <div className="crew-note refused" key={p.key} data-testid="crew-refused">
          {p.code} · {t(p.step)}: {t('refused', { message: p.refused })}
          <button className="crew-link" onClick={() => void dismiss(p.key).then(sync)}>{t('dismiss')}</button>
        </div>
      ))}
    </>
  );

  if (open) {
    const mine = pending.filter((p) => p.incidentId === open.incident.id && !p.refused);
    const state = mine.reduce<AlertState>((s, p) => AFTER[p.step] ?? s, open.incident.state);
    return (
      <main className="crew">
        <header className="crew-bar">
          <button className="crew-back" onClick={() => setOpenId(null)} aria-label={t('back')}>‹</button>
          <h1>{open.incident.code}</h1>
        </header>
        {banner}
        <IncidentView incident={open.incident} state={state} distance={open.distance} position={position} pending={mine} onStep={take} />
      </main>
    );
  }

  return (
    <main className="crew">
      <header className="crew-bar"><h1>{t('title')}</h1></header>
      {banner}
      {incidents !== null && sorted.length === 0 && <section className="crew-empty">{t('empty')}</section>}
      <ul className="crew-list" data-testid="crew-list">
        {sorted.map(({ incident, distance }) => {
          const state = pending.filter((p) => p.incidentId === incident.id && !p.refused).reduce<AlertState>((s, p) => AFTER[p.step] ?? s, incident.state);
          return (
            <li key={incident.id}>
              <button className="crew-card" onClick={() => setOpenId(incident.id)} data-testid="crew-card">
                <span className="crew-level" style={{ background: LEVEL_COLOR[incident.level] }}>{incident.level}</span>
                <span className="crew-card-body">
                  <strong>{title(incident)}</strong>
                  <span className="crew-muted">
                    {incident.code} · {t(`state.${state}`)} · {distanceText(t, distance)}
                  </span>
                  {incident.deadline && <span className={incident.overdue ? 'crew-danger' : 'crew-muted'}>{incident.overdue ? t('overdue') : t('due', { at: time(incident.deadline) })}</span>}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </main>
  );
}

type T = ReturnType<typeof useTranslation>['t'];
/** The incident's one title, as the desk and the texts say it. */
const title = (i: Pick<CrewIncident, 'kind' | 'subject' | 'memberCount' | 'pipeCount'>) => incidentTitle(i, language());
const distanceText = (t: T, distance: number | null) => (distance === null ? t('noPosition') : distance < 1000 ? t('distanceM', { m: Math.round(distance) }) : t('distance', { km: (distance / 1000).toFixed(1) }));

/** One incident: its map, navigation, what it is, the steps the crew takes, its timeline. */
function IncidentView({ incident, state, distance, position, pending, onStep }: { incident: CrewIncident; state: AlertState; distance: number | null; position: [number, number] | null; pending: Pending[]; onStep: (item: Omit<Pending, 'key' | 'createdAt' | 'photosSent'>) => Promise<void> }) {
  const { t } = useTranslation();
  const [form, setForm] = useState<'handle' | 'note' | null>(null);
  const [note, setNote] = useState('');
  const [photos, setPhotos] = useState<{ name: string; blob: Blob; url: string }[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const links = navigationLinks(incident);

  const submit = async () => {
    if (form === 'handle' && !note.trim()) return setError(t('required'));
    setBusy(true);
    try {
      await onStep({ incidentId: incident.id, code: incident.code, step: form!, note: note.trim() || undefined, photos: photos.map(({ name, blob }) => ({ name, blob })) });
      photos.forEach((p) => URL.revokeObjectURL(p.url));
      setForm(null);
      setNote('');
      setPhotos([]);
      setError(null);
    } finally {
      setBusy(false);
    }
  };
  const addPhotos = async (files: FileList | null) => {
    for (const file of [...(files ?? [])].slice(0, PHOTOS_MAX - photos.length)) {
      const photo = await compressPhoto(file);
      setPhotos((list) => [...list, { ...photo, url: URL.createObjectURL(photo.blob) }].slice(0, PHOTOS_MAX));
    }
  };

  return (
    <article className="crew-detail" data-testid="crew-detail">
      <div className="crew-head">
        <span className="crew-level" style={{ background: LEVEL_COLOR[incident.level] }}>{incident.level}</span>
        <div>
          <h2 data-testid="crew-title">{title(incident)}</h2>
          <span className="crew-muted" data-testid="crew-state">
            {t(`state.${state}`)} · {distanceText(t, distance)}
            {incident.deadline && ` · ${incident.overdue ? t('overdue') : t('due', { at: time(incident.deadline) })}`}
          </span>
        </div>
      </div>
      <MiniMap incident={incident} position={position} />
      <div className="crew-actions">
        <span className="crew-muted">{t('navigate')}</span>
        <a className="crew-button" href={links.phone} data-testid="crew-nav-geo">{t('navPhone')}</a>
        <a className="crew-button" href={links.amap} target="_blank" rel="noreferrer" data-testid="crew-nav-amap">{t('navAmap')}</a>
        <a className="crew-button" href={links.baidu} target="_blank" rel="noreferrer" data-testid="crew-nav-baidu">{t('navBaidu')}</a>
      </div>

      {form === null ? (
        <div className="crew-actions">
          {state === 'dispatched' && <button className="crew-button primary" disabled={busy} onClick={() => void onStep({ incidentId: incident.id, code: incident.code, step: 'accept', photos: [] })} data-testid="crew-accept">{t('accept')}</button>}
          {state === 'handling' && <button className="crew-button primary" onClick={() => setForm('handle')} data-testid="crew-handle">{t('handle')}</button>}
          <button className="crew-button" onClick={() => setForm('note')} data-testid="crew-note">{t('note')}</button>
        </div>
      ) : (
        <form className="crew-form" onSubmit={(e) => (e.preventDefault(), void submit())} data-testid="crew-form">
          <label>
            {form === 'handle' ? t('report') : t('noteLabel')}
            <textarea value={note} maxLength={2000} rows={3} onChange={(e) => setNote(e.target.value)} data-testid="crew-form-note" />
          </label>
          {error && <span className="crew-danger">{error}</span>}
          <span>{t('photos')}</span>
          <div className="crew-photos">
            {photos.map((p) => <img key={p.url} src={p.url} alt={p.name} data-testid="crew-photo-preview" />)}
            {photos.length < PHOTOS_MAX && (
              <label className="crew-button">
                {t('addPhoto')}
                <input type="file" accept="image/*" capture="environment" multiple hidden onChange={(e) => void addPhotos(e.target.files)} data-testid="crew-photo-input" />
              </label>
            )}
          </div>
          <div className="crew-actions">
            <button className="crew-button primary" type="submit" disabled={busy} data-testid="crew-form-send">{t('send')}</button>
            <button className="crew-button" type="button" onClick={() => setForm(null)}>{t('cancel')}</button>
          </div>
        </form>
      )}

      <h3>{t('alerts')} ({incident.memberCount})</h3>
      <ul className="crew-members">
        {incident.members.map((m) => (
          <li key={m.id}>
            <span className="crew-dot" style={{ background: LEVEL_COLOR[m.level] }} />
            {t(`rule.${m.rule}`)} · {m.subject}
            {m.clearedAt && <span className="crew-muted"> · {t('cleared')}</span>}
            {m.value !== null && <span className="crew-muted"> · {Math.round(m.value * 100) / 100} {m.unit === 'd' ? '' : (m.unit ?? '')}{m.threshold !== null ? ` / ${m.threshold}` : ''}</span>}
          </li>
        ))}
      </ul>
      {incident.pipeIds.length > 0 && (
        <>
          <h3>{t('pipes')} ({incident.pipeCount})</h3>
          <p className="crew-tags">{incident.pipeIds.slice(0, 20).map((id) => <span key={id}>{id}</span>)}</p>
        </>
      )}
      <h3>{t('timeline')}</h3>
      <ol className="crew-timeline" data-testid="crew-timeline">
        {pending.map((p) => (
          <li key={p.key} className="pending">
            <strong>{t(p.step === 'handle' ? 'handle' : p.step)}</strong> · {t('pending')}
            {p.note && <div>{p.note}</div>}
          </li>
        ))}
        {[...incident.events].reverse().map((e) => (
          <li key={e.id}>
            <strong>{t(`events.${e.action}`)}</strong> · {time(e.at)} {e.userName ? `· ${e.userName}` : ''}
            {e.photos.length > 0 && <span className="crew-muted" data-testid="crew-event-photos"> · {t('photoCount', { count: e.photos.length })}</span>}
            {e.note && <div>{e.note}</div>}
          </li>
        ))}
      </ol>
    </article>
  );
}
