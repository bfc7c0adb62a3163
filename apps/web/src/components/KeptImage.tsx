import { useEffect, useState } from 'react';
import { Image } from 'antd';

/**
 * A kept photo loaded through the API with the token (a plain <img src> cannot send it), shown
 * as a square thumbnail that opens the preview.
 */
export function KeptImage({ id, fileName, load, size, testId }: { id: number; fileName: string; load: (id: number) => Promise<Blob>; size: number; testId: string }) {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    let objectUrl: string | undefined;
    void load(id).then((blob) => setUrl((objectUrl = URL.createObjectURL(blob))));
    return () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id, load]);
  return <Image src={url} width={size} height={size} style={{ objectFit: 'cover', borderRadius: 4 }} alt={fileName} data-testid={testId} />;
}
