// Applies the saved dark-mode choice before the page paints, so a dark page never flashes light.
try {
  if (localStorage.getItem('dark_mode') === 'true') document.documentElement.classList.add('dark');
} catch {
  // Storage refused: the page stays light.
}

// A language picked before the page's script has taken over would be undone by hydration: keep it as the
// saved choice (the key of languages.ts), which the site applies as soon as it starts (see use-language.ts).
document.addEventListener(
  'change',
  (e) => {
    const picker = e.target;
    if (!(picker instanceof HTMLSelectElement) || !picker.closest('.language')) return;
    try {
      localStorage.setItem('language', picker.value);
    } catch {
      // Storage refused: the choice is lost, as any would be.
    }
  },
  true,
);
