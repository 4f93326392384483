#!/usr/bin/env python3
# The DOM of pages after their scripts ran, as `chromium --headless --dump-dom URL`
# prints it, from one headless Chromium for many pages: starting Chromium costs
# a few seconds of CPU, and the HTML tests view the same page some hundred times.
#
#   chrome-dom.py [--chromium PATH] [--user-data-dir DIR] dump URL...
#       each URL's DOM on stdout, one after the other
#   chrome-dom.py [--chromium PATH] [--user-data-dir DIR] serve
#       reads lines "OUTFILE<TAB>URL" on stdin and answers each with one line on
#       stdout, "ok" (the DOM is in OUTFILE) or "error WHY"; Chromium is started
#       at the first request and ends with stdin (tests/run.sh's dump_dom)
#
# Each URL gets a fresh page, as with --dump-dom: a new target (about:blank), then
# Page.navigate to URL, and once its load event fired, the doctype and
# document.documentElement.outerHTML, which is what --dump-dom evaluates at that
# moment; the target is then closed. Chromium is driven over
# --remote-debugging-pipe (DevTools protocol on fds 3 and 4, JSON messages ended
# by a NUL byte). Starting Chromium, and each page, may take --timeout seconds
# (120, as the tests' `timeout 120` of --dump-dom); a page not loaded by then is an
# error, and Chromium is started again for the next one; Chromium ending is an error.
# tests/t-html.sh checks that this prints byte for byte what --dump-dom prints.
import argparse
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run']
# --dump-dom's one page is in the foreground; pages opened over the protocol are
# background tabs, whose renderer Chromium would run at nice 5 and throttle: on a
# busy machine a page then takes minutes to load. Scheduling only: the DOM is the same.
FLAGS += ['--disable-renderer-backgrounding', '--disable-background-timer-throttling',
          '--disable-backgrounding-occluded-windows']

# what --dump-dom prints: the doctype, as XMLSerializer writes it, then the root
DUMP = ("(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + '\\n'"
        " : '') + (document.documentElement ? document.documentElement.outerHTML : '')")


class Failed(Exception):
    pass


class Chrome:
    def __init__(self, chromium, user_data_dir, timeout):
        self.timeout = timeout
        self.next_id = 0
        self.buf = b''
        self.events = []
        cmd_r, cmd_w = os.pipe()
        resp_r, resp_w = os.pipe()
        # out of the way of 3 and 4, where Chromium expects them
        hi_r = fcntl.fcntl(cmd_r, fcntl.F_DUPFD_CLOEXEC, 10)
        hi_w = fcntl.fcntl(resp_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(cmd_r)
        os.close(resp_w)

        def fds():
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)
        self.proc = subprocess.Popen(
            [chromium] + FLAGS + ['--user-data-dir=' + user_data_dir,
                                  '--remote-debugging-pipe', 'about:blank'],
            stdin=subprocess.DEVNULL, stdout=sys.stderr, preexec_fn=fds, close_fds=False)
        os.close(hi_r)
        os.close(hi_w)
        self.w, self.r = cmd_w, resp_r
        # started: its first answer (the pages' own time then counts from their request,
        # as `timeout 120 chromium --dump-dom` gave each page a start and a load)
        self.call('Browser.getVersion')

    def close(self):
        try:
            self.call('Browser.close', deadline=time.monotonic() + 10)
        except (Failed, OSError):
            pass
        for fd in (self.w, self.r):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def send(self, method, params=None, session=None):
        self.next_id += 1
        m = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            m['sessionId'] = session
        data = json.dumps(m).encode() + b'\0'
        while data:
            data = data[os.write(self.w, data):]
        return self.next_id

    def receive(self, deadline):
        """The next message from Chromium, waiting until deadline at most"""
        while b'\0' not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.r], [], [], left)[0]:
                raise Failed('no answer from Chromium in %d s' % self.timeout)
            chunk = os.read(self.r, 1 << 20)
            if not chunk:
                raise Failed('Chromium ended (exit status %s)' % self.proc.poll())
            self.buf += chunk
        msg, self.buf = self.buf.split(b'\0', 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, deadline=None):
        """method's result; events that come meanwhile are kept for wait_event"""
        i = self.send(method, params, session)
        deadline = deadline or time.monotonic() + self.timeout
        while True:
            m = self.receive(deadline)
            if m.get('id') == i:
                if 'error' in m:
                    raise Failed('%s: %s' % (method, m['error'].get('message')))
                return m.get('result', {})
            if 'method' in m:
                self.events.append(m)

    def wait_event(self, session, want, deadline):
        """the first event of session for which want(event) is true"""
        while True:
            while self.events:
                m = self.events.pop(0)
                if m.get('sessionId') == session and want(m):
                    return m
            self.events.append(self.receive(deadline))

    def dom(self, url):
        deadline = time.monotonic() + self.timeout
        target = self.call('Target.createTarget', {'url': 'about:blank'},
                           deadline=deadline)['targetId']
        try:
            s = self.call('Target.attachToTarget', {'targetId': target, 'flatten': True},
                          deadline=deadline)['sessionId']
            self.call('Page.enable', session=s, deadline=deadline)
            nav = self.call('Page.navigate', {'url': url}, session=s, deadline=deadline)
            if nav.get('errorText'):
                raise Failed('%s: %s' % (url, nav['errorText']))
            # the load event of the new document: the main frame's navigation to it
            # first (about:blank may still send its own load event before)
            loader = nav.get('loaderId')
            self.wait_event(s, lambda m: m['method'] == 'Page.frameNavigated' and
                            'parentId' not in m['params']['frame'] and
                            m['params']['frame'].get('loaderId') == loader, deadline)
            self.wait_event(s, lambda m: m['method'] == 'Page.loadEventFired', deadline)
            r = self.call('Runtime.evaluate', {'expression': DUMP, 'returnByValue': True},
                          session=s, deadline=deadline)
            if 'exceptionDetails' in r:
                raise Failed('%s: %s' % (url, r['exceptionDetails'].get('text')))
            text = r['result'].get('value', '')
        finally:
            # (an event of the closed target is of no use any more)
            self.call('Target.closeTarget', {'targetId': target}, deadline=deadline)
            self.events = [m for m in self.events if m.get('sessionId') is None]
        # as Chromium writes a string to stdout: UTF-8, a lone surrogate as U+FFFD
        return text.encode('utf-16', 'surrogatepass').decode('utf-16', 'replace') \
            .encode() + b'\n'


def serve(args):
    chrome = None
    # stopped (tests/run.sh after 150 s without an answer): Chromium closed first
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        for line in sys.stdin:
            out, _, url = line.rstrip('\n').partition('\t')
            try:
                if chrome is None:
                    chrome = Chrome(args.chromium, args.user_data_dir, args.timeout)
                data = chrome.dom(url)
                with open(out, 'wb') as f:
                    f.write(data)
                reply = 'ok'
            except (Failed, OSError, ValueError, KeyError) as e:
                reply = 'error ' + str(e).replace('\n', ' ')
                print('chrome-dom: %s: %s' % (url, reply[6:]), file=sys.stderr)
                # a Chromium that failed once is not trusted with the next page
                if chrome is not None:
                    chrome.close()
                    chrome = None
            print(reply, flush=True)
    finally:
        if chrome is not None:
            chrome.close()


def main():
    ap = argparse.ArgumentParser(description='DOMs of pages, as chromium --dump-dom')
    ap.add_argument('--chromium', default=shutil.which('chromium') or 'chromium')
    ap.add_argument('--user-data-dir')
    ap.add_argument('--timeout', type=float, default=120)
    ap.add_argument('mode', choices=('dump', 'serve'))
    ap.add_argument('urls', nargs='*')
    args = ap.parse_args()
    tmp = None
    if not args.user_data_dir:
        tmp = args.user_data_dir = tempfile.mkdtemp(prefix='chrome-dom.')
    try:
        if args.mode == 'serve':
            serve(args)
            return 0
        chrome = Chrome(args.chromium, args.user_data_dir, args.timeout)
        try:
            for url in args.urls:
                sys.stdout.buffer.write(chrome.dom(url))
        except Failed as e:
            print('chrome-dom: %s' % e, file=sys.stderr)
            return 1
        finally:
            chrome.close()
        return 0
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
