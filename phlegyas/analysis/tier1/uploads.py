"""What the network senders send: the files and whether stdin each uploader (``curl -T``/``-F``/``-d @``,
``wget --post-file``, ``scp``/``rsync``/``rclone`` to a host, ``sftp``/``lftp``/``tftp``/``smbclient`` batches'
``put``s, ``gh`` gist and release uploads, mail attachments, ``logger -n``, ``hping3 -E``, ``ntfy``, ``apprise``,
``mc cp``, ``duplicity``) hands to the network, for ``tier1.network.detect_upload`` and the flows.
"""
from __future__ import annotations

from typing import Final

from phlegyas.analysis.shell.invocation import Invocation
from phlegyas.analysis.tier1.base import RSYNC_LONG_VALUES, RSYNC_SHORT_VALUES, Opts, parse_opts
from phlegyas.analysis.tier1.secrets import gh_uploads, sftp_puts

CURL_SHORT_VALUES = _CURL_VALUES = "oHdXuAebcFTKxmwrYyzCEPQtUDS"
CURL_LONG_VALUES = _CURL_LONG = frozenset({
    "--data", "--data-binary", "--data-ascii", "--data-raw", "--data-urlencode", "--json", "--form",
    "--form-string", "--upload-file", "--request", "--header", "--output", "--user", "--user-agent", "--referer",
    "--cookie", "--cookie-jar", "--config", "--proxy", "--max-time", "--write-out", "--range", "--url",
    "--cacert", "--cert", "--key", "--connect-timeout", "--retry", "--resolve", "--dump-header", "--oauth2-bearer",
    "--unix-socket", "--interface", "--limit-rate", "--variable", "--expand-data", "--stderr", "--trace",
    "--trace-ascii", "--aws-sigv4", "--netrc-file", "--output-dir", "--create-file-mode", "--proto",
})
_DATA_FLAGS: Final = ("-d", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "--json")


def _curl_uploads(opts: Opts) -> tuple[list[str], bool]:
    """(files curl sends, whether it sends its stdin)."""
    files: list[str] = []
    stdin = False
    for v in opts.values(*_DATA_FLAGS):
        if v.startswith("@"):
            files.append(v[1:])
        elif "@" in v and opts.flags.get("--data-urlencode") and v in opts.values("--data-urlencode") \
                and "=" not in v.split("@", 1)[0]:
            files.append(v.split("@", 1)[1])
    for v in opts.values("-F", "--form"):
        _, _, rhs = v.partition("=")
        if rhs[:1] in ("@", "<"):
            files.append(rhs[1:].split(";", 1)[0])
    files.extend(opts.values("-T", "--upload-file"))
    if "-" in files:
        stdin = True
    return [f for f in files if f != "-"], stdin


_COPY_OPTIONS: Final = {
    "scp": ("cFiJloPSX", frozenset()),
    "sftp": ("BbcDFiJloPRSs", frozenset()),
    "rsync": (RSYNC_SHORT_VALUES, RSYNC_LONG_VALUES),
}


_AWS_FLAGS: Final = frozenset({"--recursive", "--dryrun", "--quiet", "--no-progress", "--delete", "--exact-timestamps",
                               "--follow-symlinks", "--no-follow-symlinks", "--only-show-errors", "--no-sign-request",
                               "--no-verify-ssl", "--no-guess-mime-type", "--size-only", "--no-paginate", "--debug"})
"""``aws s3 cp/sync`` options that take no value (the others' values are not files: ``--acl public-read``)."""


def uploads(inv: Invocation) -> tuple[list[str], bool]:
    """Files an uploader sends and whether it sends its stdin."""
    prog = inv.program
    if prog in ("curl", "curlie"):
        return _curl_uploads(parse_opts(inv.args, short_values=_CURL_VALUES, long_values=_CURL_LONG))
    if prog in ("wget", "wget2"):
        files = []
        for w in inv.args:
            for flag in ("--post-file=", "--body-file="):
                if w.text.startswith(flag):
                    files.append(w.text[len(flag):])
        texts = [w.text for w in inv.args]
        for i, t in enumerate(texts[:-1]):
            if t in ("--post-file", "--body-file"):
                files.append(texts[i + 1])
        return files, False
    if prog in ("http", "https", "httpie", "xh"):
        files = []
        for w in inv.args:
            t = w.text
            if t.startswith("@"):
                files.append(t[1:])
            elif "=@" in t or ":=@" in t:
                files.append(t.split("@", 1)[1])
            elif "@" in t and not t.startswith(("-", "http")) and "=" not in t and ":" not in t.split("@")[0]:
                files.append(t.split("@", 1)[1])
        return files, not any(w.text == "--ignore-stdin" for w in inv.args)
    if prog == "logger":  # `logger -n HOST -f FILE`: a file's lines sent to a remote syslog
        texts = [w.text for w in inv.args]
        remote = any(t in ("-n", "--server") or t.startswith("--server=") for t in texts)
        return ([texts[i + 1] for i, t in enumerate(texts[:-1]) if t in ("-f", "--file")] if remote else []), remote
    if prog in ("hping3", "ntfy", "apprise"):  # `hping3 -E FILE`, `ntfy publish --file FILE`, `apprise --attach FILE`
        texts = [w.text for w in inv.args]
        flags = {"hping3": ("-E", "--file"), "ntfy": ("--file", "-f"), "apprise": ("--attach", "-a")}[prog]
        return [texts[i + 1] for i, t in enumerate(texts[:-1]) if t in flags], prog == "apprise"
    if prog in ("mc", "mcli", "duplicity"):  # `mc cp -r ~/.aws x/drop/`, `duplicity full SRC sftp://…`: all but the last
        operands = [w.text for w in inv.args if not w.text.startswith("-")]
        operands = operands[1:] if operands[:1] in (["cp"], ["mirror"], ["full"], ["incremental"], ["incr"]) else \
            operands if prog == "duplicity" else []
        return operands[:-1], False
    if prog in ("sftp", "ftp", "lftp", "tnftp", "tftp", "smbclient"):  # a batch's `put`s (lftp's -c commands too)
        return sftp_puts(inv), False
    if prog in ("scp", "rsync", "sftp", "rclone"):
        short, longs = _COPY_OPTIONS.get(prog, ("", frozenset()))
        operands = [w.text for w in parse_opts(inv.args, short_values=short, long_values=longs).operands]
        if prog == "rclone" and operands:
            operands = operands[1:]
        if len(operands) >= 2 and ":" in operands[-1].split("/", 1)[0]:
            return [o for o in operands[:-1] if ":" not in o.split("/", 1)[0]], False
        return [], False
    if prog in ("aws", "gsutil"):
        texts = [w.text for w in inv.args]
        words = [t for i, t in enumerate(texts) if not t.startswith("-") and not (  # not an option's value
            i and texts[i - 1].startswith("--") and "=" not in texts[i - 1] and texts[i - 1] not in _AWS_FLAGS)]
        if len(words) >= 3 and words[-1].startswith(("s3://", "gs://")) and ("cp" in words or "sync" in words or
                                                                          "mv" in words):
            return [w for w in words[:-1] if w not in ("s3", "cp", "sync", "mv") and "://" not in w], False
        return [], False
    if prog == "socat":
        files = [w.text.split(":", 1)[1].split(",", 1)[0] for w in inv.args
                 if w.text.lower().startswith(("file:", "open:", "gopen:"))]
        return files, True
    if prog == "gh":
        return gh_uploads([w.text for w in inv.args])
    if prog in _DROPPERS:  # `wormhole send F`, `croc send F`, `ffsend upload F`: a file handed to a stranger's
        words = [w.text for w in inv.args if not w.text.startswith("-")]  # machine; pastebinit takes stdin or -i
        if prog == "pastebinit":
            texts = [w.text for w in inv.args]
            named = [texts[i + 1] for i, t in enumerate(texts[:-1]) if t == "-i"]
            return named, not named
        return words[1:] if words[:1] in (["send"], ["upload"]) else words, False
    if prog in MAILERS:
        texts = [w.text for w in inv.args]
        return [texts[i + 1] for i, t in enumerate(texts[:-1]) if t in ("-a", "-A", "--attach")], True
    return [], True  # nc, ncat, netcat, telnet, openssl, ssh: whatever is on stdin


_DROPPERS: Final = frozenset({"wormhole", "croc", "ffsend", "pastebinit", "transfersh", "termbin"})
"""File-drop and paste clients: what they are given leaves for a host of someone else's."""
MAILERS: Final = frozenset({"mail", "mailx", "s-nail", "mutt", "neomutt", "sendmail", "msmtp", "ssmtp", "swaks"})


__all__ = ["CURL_LONG_VALUES", "CURL_SHORT_VALUES", "MAILERS", "uploads"]
