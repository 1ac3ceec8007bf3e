/*
 * Avail embed (issue 14 item 7). Put your availability on any site:
 *   <script src="https://YOUR-AVAIL-HOST/embed.js" data-avail="username"></script>
 * Optional: data-key="…" (a personal link's key), data-title="…" (the frame's accessible name).
 * The script puts an iframe of https://YOUR-AVAIL-HOST/embed/username right after itself; the page in
 * it posts its height ({ type: 'avail:height', height }) and the frame follows, so it never scrolls.
 * Messages are taken only from that frame and that origin. Plain ES5, no dependencies.
 */
(function () {
  var script = document.currentScript;
  if (!script || !script.src) return;
  var username = script.getAttribute('data-avail');
  if (!username) {
    if (window.console) console.warn('Avail embed: add data-avail="your-username" to the script tag.');
    return;
  }
  var origin = new URL(script.src, location.href).origin;
  var src = origin + '/embed/' + encodeURIComponent(username);
  var key = script.getAttribute('data-key');
  if (key) src += '?key=' + encodeURIComponent(key);
  var frame = document.createElement('iframe');
  frame.src = src;
  frame.title = script.getAttribute('data-title') || 'Free times of ' + username;
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.setAttribute('data-avail-frame', username);
  frame.style.cssText = 'display:block;width:100%;max-width:100%;border:0;height:560px;overflow:hidden';
  window.addEventListener('message', function (event) {
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    var data = event.data;
    if (!data || data.type !== 'avail:height' || typeof data.height !== 'number') return;
    if (data.height > 0 && data.height < 20000) frame.style.height = Math.ceil(data.height) + 'px';
  });
  script.parentNode.insertBefore(frame, script.nextSibling);
})();
