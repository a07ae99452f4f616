// Applies the saved dark-mode choice before the page paints, so a dark page never flashes light.
try {
  if (localStorage.getItem('dark_mode') === 'true') document.documentElement.classList.add('dark');
} catch {
  // Storage refused: the page stays light.
}
