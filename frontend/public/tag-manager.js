// Loads the configured tag-manager container once for the whole site.
(function () {
  var id = document.currentScript && document.currentScript.getAttribute('data-container');
  if (!id || !/^GTM-[A-Z0-9]{4,12}$/.test(id) || window.quireTagManager) return;
  window.quireTagManager = true;
  window.dataLayer = window.dataLayer || [];
  window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  var script = document.createElement('script');
  script.async = true;
  script.src = 'https://www.googletagmanager.com/gtm.js?id=' + encodeURIComponent(id);
  document.head.appendChild(script);
})();
