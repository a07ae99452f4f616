#!/usr/bin/python3
"""
Drives the office service's warm LibreOffice listeners over UNO.

One process for all instances. It reads one JSON request per line on stdin and answers one JSON line
on stdout, each carrying the request's id:

  {"op": "connect", "id": 1, "instance": 0, "pipe": "name", "timeoutMs": 30000, "warmUp": true,
   "pgid": 1234, "scratch": "/dir"}
  {"op": "convert", "id": 2, "instance": 0, "input": "/path/doc.docx", "output": "/path/out.pdf",
   "password": null, "pageRange": "", "landscape": false, "expect": "writer",
   "importFilter": null, "importOptions": null, "exportOptions": {"ExportFormFields": true}}
  {"op": "disconnect", "instance": 0}
  {"op": "ping", "id": 3}

Answers: {"id": 2, "ok": true, "family": "writer", "ms": 83} or
         {"id": 2, "ok": false, "error": "<kind>", "detail": "..."} where kind is one of
         password_required, wrong_password, load_failed, wrong_family, export_failed, disconnected,
         connect_failed, bad_request.

Each instance has its own worker thread (pyuno lets go of the GIL during remote calls, so instances
work in parallel). A new connect replaces an instance's worker; a worker stuck in a dead call is
simply abandoned. Documents load hidden and read-only, macros never run (NEVER_EXECUTE), links are
never updated (NO_UPDATE), and every interaction is refused except a password request, which is
recorded so that a missing password and a wrong one can be told apart. When stdin closes (the Node
service is gone), the helper kills the listeners it was told about and exits.
"""

import json
import os
import queue
import shutil
import signal
import sys
import threading
import time
import traceback

import uno
import unohelper
from com.sun.star.beans import PropertyValue
from com.sun.star.task import XInteractionHandler

NEVER_EXECUTE = 0  # com.sun.star.document.MacroExecMode.NEVER_EXECUTE
NO_UPDATE = 0  # com.sun.star.document.UpdateDocMode.NO_UPDATE

FAMILIES = (
    ("writer", "com.sun.star.text.TextDocument", "writer_pdf_Export"),
    ("calc", "com.sun.star.sheet.SpreadsheetDocument", "calc_pdf_Export"),
    ("impress", "com.sun.star.presentation.PresentationDocument", "impress_pdf_Export"),
    ("draw", "com.sun.star.drawing.DrawingDocument", "draw_pdf_Export"),
)

_out = threading.Lock()
_groups = {}  # instance -> process group of its listener, killed when stdin closes
_cleanup = {}  # instance -> files and directories to remove then (its profile, temp files, pipes)


def send(message):
    line = json.dumps(message)
    with _out:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def props(**kw):
    return tuple(prop(k, v) for k, v in kw.items())


def type_names(obj):
    try:
        return [t.typeName for t in obj.getTypes()]
    except Exception:
        return []


class Refuse(unohelper.Base, XInteractionHandler):
    """Answers every question LibreOffice asks with no, noting whether a password was asked for."""

    def __init__(self):
        self.password_asked = False

    def handle(self, request):
        try:
            continuations = request.getContinuations()
            kinds = [type_names(c) for c in continuations]
            if any(("com.sun.star.task.XInteractionPassword" in k or "com.sun.star.task.XInteractionPassword2" in k) for k in kinds):
                self.password_asked = True
            for wanted in ("com.sun.star.task.XInteractionAbort", "com.sun.star.task.XInteractionDisapprove"):
                for c, k in zip(continuations, kinds):
                    if wanted in k:
                        c.select()
                        return
        except Exception:
            pass


def is_disconnect(exc):
    name = type(exc).__name__
    text = str(exc)
    return (
        "DisposedException" in name
        or "Binary URP bridge" in text
        or "bridge disposed" in text.lower()
        or isinstance(exc, (BrokenPipeError, ConnectionError))
    )


class Failure(Exception):
    def __init__(self, kind, detail=""):
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


class Worker:
    def __init__(self, instance):
        self.instance = instance
        self.tasks = queue.Queue()
        self.desktop = None
        self.thread = threading.Thread(target=self.loop, name="instance-%d" % instance, daemon=True)
        self.thread.start()

    def loop(self):
        while True:
            task = self.tasks.get()
            if task is None:
                return
            started = time.monotonic()
            try:
                result = getattr(self, "op_" + task["op"])(task)
                reply = {"id": task.get("id"), "ok": True}
                reply.update(result or {})
            except Failure as f:
                reply = {"id": task.get("id"), "ok": False, "error": f.kind, "detail": f.detail[:2000]}
            except Exception as e:  # anything unforeseen, told apart from a dead listener
                kind = "disconnected" if is_disconnect(e) else "export_failed"
                reply = {"id": task.get("id"), "ok": False, "error": kind, "detail": (type(e).__name__ + ": " + str(e))[:2000]}
            reply["ms"] = int((time.monotonic() - started) * 1000)
            if task.get("id") is not None:
                send(reply)

    # --- operations -----------------------------------------------------------------------------

    def op_connect(self, task):
        deadline = time.monotonic() + task.get("timeoutMs", 30000) / 1000.0
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
        url = "uno:pipe,name=%s;urp;StarOffice.ComponentContext" % task["pipe"]
        last = None
        while True:
            try:
                ctx = resolver.resolve(url)
                break
            except Exception as e:
                last = e
                if time.monotonic() > deadline:
                    raise Failure("connect_failed", "%s: %s" % (type(last).__name__, last))
                time.sleep(0.05)
        self.desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        if task.get("warmUp"):
            self.warm_up(task.get("scratch") or "/tmp")
        return {}

    def warm_up(self, scratch):
        """Loads each application and the PDF export once, so the first real job is as fast as the rest."""
        for factory, flt in (("swriter", "writer_pdf_Export"), ("scalc", "calc_pdf_Export"), ("simpress", "impress_pdf_Export")):
            doc = self.desktop.loadComponentFromURL("private:factory/" + factory, "_blank", 0, props(Hidden=True))
            out = os.path.join(scratch, "warm-up-%s.pdf" % factory)
            try:
                doc.storeToURL(uno.systemPathToFileUrl(out), props(FilterName=flt))
            finally:
                close(doc)
                try:
                    os.unlink(out)
                except OSError:
                    pass

    def op_convert(self, task):
        if self.desktop is None:
            raise Failure("disconnected", "not connected")
        handler = Refuse()
        load = dict(
            Hidden=True,
            ReadOnly=True,
            MacroExecutionMode=NEVER_EXECUTE,
            UpdateDocMode=NO_UPDATE,
            InteractionHandler=handler,
        )
        password = task.get("password")
        if password:
            load["Password"] = password
        if task.get("importFilter"):
            load["FilterName"] = task["importFilter"]
        if task.get("importOptions"):
            load["FilterOptions"] = task["importOptions"]
        try:
            doc = self.desktop.loadComponentFromURL(uno.systemPathToFileUrl(task["input"]), "_blank", 0, props(**load))
        except Exception as e:
            if is_disconnect(e):
                raise
            doc = None
            detail = "%s: %s" % (type(e).__name__, e)
        else:
            detail = "the document did not load"
        if doc is None:
            if handler.password_asked:
                raise Failure("wrong_password" if password else "password_required", detail)
            raise Failure("load_failed", detail)
        try:
            family, export_filter = None, None
            for name, service, flt in FAMILIES:
                if doc.supportsService(service):
                    family, export_filter = name, flt
                    break
            if family is None:
                raise Failure("wrong_family", "not a text, spreadsheet, presentation or drawing document")
            expect = task.get("expect")
            if expect and family != expect:
                raise Failure("wrong_family", "a %s document, not %s" % (family, expect))
            if task.get("landscape"):
                landscape(doc)
            data = []
            if task.get("pageRange"):
                data.append(prop("PageRange", task["pageRange"]))
            for key, value in (task.get("exportOptions") or {}).items():
                data.append(prop(key, value))
            export = props(FilterName=export_filter)
            export += (prop("FilterData", uno.Any("[]com.sun.star.beans.PropertyValue", tuple(data))),)
            try:
                doc.storeToURL(uno.systemPathToFileUrl(task["output"]), export)
            except Exception as e:
                if is_disconnect(e):
                    raise
                raise Failure("export_failed", "%s: %s" % (type(e).__name__, e))
            return {"family": family}
        finally:
            close(doc)

    def op_stop(self, task):
        return {}


def landscape(doc):
    """Turns every portrait page style landscape (text and spreadsheet documents; slides already are)."""
    try:
        styles = doc.getStyleFamilies().getByName("PageStyles")
    except Exception:
        return
    for name in styles.getElementNames():
        style = styles.getByName(name)
        try:
            if not style.IsLandscape:
                w, h = style.Width, style.Height
                style.IsLandscape = True
                style.Width, style.Height = max(w, h), min(w, h)
        except Exception:
            pass


def close(doc):
    try:
        doc.close(True)
    except Exception:
        try:
            doc.dispose()
        except Exception:
            pass


def kill_listeners():
    for pgid in list(_groups.values()):
        try:
            os.killpg(pgid, signal.SIGKILL)
        except Exception:
            pass
    time.sleep(0.5)
    for paths in list(_cleanup.values()):
        for path in paths:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                try:
                    os.unlink(path)
                except OSError:
                    pass


def main():
    workers = {}
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            task = json.loads(line)
            op = task.get("op")
            instance = task.get("instance")
            if op == "ping":
                send({"id": task.get("id"), "ok": True, "pid": os.getpid()})
            elif op == "connect":
                old = workers.pop(instance, None)
                if old is not None:
                    old.tasks.put(None)
                if task.get("pgid"):
                    _groups[instance] = task["pgid"]
                _cleanup[instance] = list(task.get("cleanup") or [])
                worker = Worker(instance)
                workers[instance] = worker
                worker.tasks.put(task)
            elif op == "disconnect":
                old = workers.pop(instance, None)
                _groups.pop(instance, None)
                _cleanup.pop(instance, None)
                if old is not None:
                    old.tasks.put(None)
            elif op == "convert":
                worker = workers.get(instance)
                if worker is None:
                    send({"id": task.get("id"), "ok": False, "error": "disconnected", "detail": "no such instance"})
                else:
                    worker.tasks.put(task)
            else:
                send({"id": task.get("id"), "ok": False, "error": "bad_request", "detail": "unknown op"})
        except Exception as e:
            sys.stderr.write("uno helper: %s\n" % traceback.format_exc())
            send({"id": None, "ok": False, "error": "bad_request", "detail": str(e)[:500]})
    # The service is gone: take its listeners along, and skip pyuno's teardown, which can crash.
    kill_listeners()
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
