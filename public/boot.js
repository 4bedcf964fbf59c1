// Runs before the first paint: applies the theme and language stored under "theme-storage".
(function () {
  var theme = 'light';
  var language = 'zh';
  try {
    var stored = JSON.parse(localStorage.getItem('theme-storage') || '{}') || {};
    if (stored.theme === 'dark') theme = 'dark';
    if (stored.language === 'en') language = 'en';
  } catch (e) {}
  var root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.lang = language === 'zh' ? 'zh-CN' : 'en';
  var meta = document.querySelector('meta[name="theme-color"]');
  if (meta && theme === 'dark') meta.setAttribute('content', '#0e1116');
})();
