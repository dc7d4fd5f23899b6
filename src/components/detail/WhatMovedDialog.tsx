/** The detail dialog's compact "What moved": loaded with the dialog, shown once the metrics file answers (nothing on a failure). */
import { useEffect, useState } from 'react';
import { fetchWhatMoved } from '../../lib/client/what-moved';
import type { WhatMoved as Moved } from '../../lib/domain/trend/what-moved';
import WhatMoved from './WhatMoved';

export default function WhatMovedDialog({ ticker }: { ticker: string }) {
  const [moved, setMoved] = useState<{ ticker: string; moved: Moved } | null>(null);
  useEffect(() => {
    let current = true;
    fetchWhatMoved(ticker).then(
      (m) => current && setMoved(m ? { ticker, moved: m } : null),
      () => current && setMoved(null),
    );
    return () => {
      current = false;
    };
  }, [ticker]);
  return moved && moved.ticker === ticker ? <WhatMoved moved={moved.moved} idPrefix="dm" compact /> : null;
}
