import { useStore } from '@nanostores/react';
import { $detailModal, closeDetailModal } from '../DetailModal';
import ModalDialog from './ModalDialog';

/** The detail dialog as the list pages' island (../DetailModal.ts) sets it: mounted on its first open. */
export default function ModalRoot() {
  const state = useStore($detailModal);
  if (!state) return null;
  return <ModalDialog ticker={state.ticker} open={state.open} onClose={closeDetailModal} />;
}
