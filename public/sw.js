/*
 * The site's service worker: shows the push notifications the daily job sends and opens their link; keeps the
 * app shell (the offline page and its icons) for when the network is gone. It never caches a page's or an API's
 * answer, so no score is ever shown from a cache as if it were current.
 */
const SHELL = 'app-shell-v1';
const SHELL_FILES = ['/offline.html', '/offline.js', '/favicon.svg', '/icons/icon-192.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== SHELL).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

// Pages go to the network; only when it fails does the offline page answer. Everything else is the browser's own.
self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (SHELL_FILES.includes(url.pathname) && request.method === 'GET') {
    event.respondWith(caches.match(url.pathname).then((cached) => cached || fetch(request)));
    return;
  }
  if (request.mode !== 'navigate') return;
  event.respondWith(fetch(request).catch(() => caches.match('/offline.html').then((cached) => cached || Response.error())));
});

self.addEventListener('push', (event) => {
  let message = { title: 'Signal alerts', body: '', url: '/account#alerts', tag: 'alerts' };
  try {
    message = { ...message, ...event.data.json() };
  } catch {
    // A push without a readable body still shows the generic notification.
  }
  event.waitUntil(
    self.registration.showNotification(message.title, { body: message.body, tag: message.tag, icon: '/icons/icon-192.png', badge: '/icons/icon-192.png', data: { url: message.url } }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  // Only this site's pages open from a notification.
  const url = target.origin === self.location.origin ? target.href : self.location.origin + '/';
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
