/**
 * The shell (sidebar, theme, search) of the AI pages as a script island, hydrated with client:interaction: a visitor
 * who only reads /ai-analysis downloads no script at all.
 */
import { scriptIsland } from '../../renderers/script-island';

export default scriptIsland(async () => {
  await import('../shell');
});
