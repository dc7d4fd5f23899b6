// The offline page: names the last report this device showed (a date, never a score) and retries.
(function () {
  var line = document.getElementById('last-report');
  try {
    var seen = localStorage.getItem('cscore-last-report');
    if (seen && /^\d{4}-\d{2}-\d{2}$/.test(seen)) {
      var date = new Date(seen + 'T00:00:00Z').toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
      line.textContent = 'The last report you saw here was of ' + date + '. Reconnect to see the current one.';
    }
  } catch (e) {}
  document.getElementById('retry').addEventListener('click', function () {
    location.reload();
  });
})();
