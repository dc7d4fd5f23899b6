import { useStore } from '@nanostores/react';
import { $detailModal, closeDetailModal } from '../../stores/detail-modal';
import ModalDialog from './ModalDialog';
import { withErrorBoundary } from '../ErrorBoundary';

/** The detail dialog as stores/detail-modal.ts describes it: mounted on its first open (islands/DetailModal.ts). */
function ModalRoot({ siteName }: { siteName: string }) {
  const state = useStore($detailModal);
  if (!state) return null;
  return <ModalDialog ticker={state.ticker} open={state.open} onClose={closeDetailModal} siteName={siteName} />;
}

/** The island, inside the spec's error boundary. */
export default withErrorBoundary(ModalRoot, 'ModalRoot');
