"""Plain readers: programs that print files or facts about files, text, processes and the system.

A few of them change state with some options or operands (``sort -o``, ``hostname NAME``, ``sysctl -w``,
``ip link set``); their entries say which.

Every entry lists the options its program accepts (``flags``: without a value; ``value_opts``: with
one), because Tier 2 allows a call only when it understands every option. The lists follow each
program's own ``--help``; an option that takes an *optional* value (``ls --color[=WHEN]``) is a flag
here, so that ``--color`` never swallows the operand after it (``--color=auto`` still parses). Options
that read a file (``grep -f``, ``date -f``, ``sort --files0-from``) are ``read_flags``, checked like
any read; options that write, run or load something are in their own sets.
"""
from __future__ import annotations

from phlegyas.analysis.programs.spec import E, Spec, add, ro

HELP = E("--help --version")
"""Every GNU tool accepts these two."""


def _r(flags: str, values: str = "", **kw) -> Spec:
    """A read-only entry from its flag string and its value-option string (``--help``/``--version`` added)."""
    return ro(flags=E(flags) | HELP, value_opts=E(values), **kw)


# -- option sets (kept under these names: the package re-exports them) -----------------------------
GREP_VALUES = E("-e --regexp -f --file -m --max-count -A --after-context -B --before-context -C --context "
                "--include --exclude --exclude-dir --exclude-from --label -d --directories "
                "-D --devices --binary-files --group-separator")
GREP_FLAGS = ("-E --extended-regexp -F --fixed-strings -G --basic-regexp -P --perl-regexp -i --ignore-case -y "
              "--no-ignore-case -w --word-regexp -x --line-regexp -z --null-data -s --no-messages -v --invert-match "
              "-V -b --byte-offset -n --line-number --line-buffered -H --with-filename -h --no-filename "
              "-o --only-matching -q --quiet --silent -a --text -I -r --recursive -R --dereference-recursive "
              "-L --files-without-match -l --files-with-matches -c --count -T --initial-tab -Z --null "
              "--no-group-separator --color --colour -U --binary")
RG_VALUES = E("-e --regexp -f --file -g --glob --iglob -t --type -T --type-not -m --max-count -A -B -C "
              "--after-context --before-context --context -j --threads -M --max-columns --max-depth -d "
              "--color --colors --sort --sortr -E --encoding --type-add --type-clear --ignore-file --max-filesize "
              "-r --replace --path-separator --context-separator --field-match-separator --field-context-separator "
              "--dfa-size-limit --regex-size-limit --engine --hyperlink-format --pre-glob --generate")
RG_FLAGS = ("-i --ignore-case -s --case-sensitive -S --smart-case -v --invert-match -w --word-regexp -x --line-regexp "
            "-F --fixed-strings -P --pcre2 -U --multiline --multiline-dotall -z --search-zip -n --line-number "
            "-N --no-line-number -H --with-filename -I --no-filename -l --files-with-matches --files-without-match "
            "-c --count --count-matches -o --only-matching -p --pretty -q --quiet -a --text -L --follow -u "
            "--unrestricted -. --hidden --no-hidden --no-ignore --no-ignore-vcs --no-ignore-dot --no-ignore-global "
            "--no-ignore-parent --no-ignore-files --no-ignore-exclude --no-require-git --no-messages --files "
            "--json --vimgrep --heading --no-heading --column --no-column --trim --stats --debug --trace --crlf "
            "--null -0 --null-data --passthru --passthrough -b --byte-offset --binary --no-config --one-file-system "
            "--glob-case-insensitive --ignore-file-case-insensitive --include-zero --max-columns-preview "
            "--block-buffered --line-buffered --no-unicode --auto-hybrid-regex --mmap --no-mmap --sort-files "
            "--type-list --no-pcre2-unicode -h -V --no-filename --with-filename --word-regexp -0")
HEAD_VALUES = E("-n --lines -c --bytes")
TAIL_VALUES = E("-n --lines -c --bytes --pid -s --sleep-interval --max-unchanged-stats")
LS_VALUES = E("-w --width -T --tabsize -I --ignore --hide --format --sort --time --time-style "
              "--block-size --indicator-style --quoting-style")
LS_FLAGS = ("-a --all -A --almost-all --author -b --escape -B --ignore-backups -c -C --color --colour -d --directory "
            "-D --dired -f -F --classify --file-type --full-time -g --group-directories-first -G --no-group -h "
            "--human-readable --si -H --dereference-command-line --dereference-command-line-symlink-to-dir "
            "--hyperlink -i --inode -k --kibibytes -l -L --dereference -m -n --numeric-uid-gid -N --literal -o -p "
            "-q --hide-control-chars --show-control-chars -Q --quote-name -r --reverse -R --recursive -s --size -S "
            "-t -u -U -v -x -X -Z --context --zero -1")
SORT_VALUES = E("-o --output -k --key -t --field-separator -S --buffer-size -T --temporary-directory "
                "--parallel --batch-size --compress-program --random-source --files0-from --sort")
CUT_VALUES = E("-b --bytes -c --characters -d --delimiter -f --fields --output-delimiter")
JQ_VALUES = E("--arg --argjson --slurpfile --rawfile --indent -L -f --from-file")
JQ_FLAGS = ("-c --compact-output -n --null-input -e --exit-status -s --slurp -r --raw-output --raw-output0 -j "
            "--join-output -a --ascii-output -R --raw-input -C --color-output -M --monochrome-output -S --sort-keys "
            "--tab --seq --stream --stream-errors --unbuffered --args --jsonargs -h -V --build-configuration")
PS_VALUES = E("-p --pid -u --user -U -g -G --group -o --format -O -C --sort -t --tty -q --quick-pid --ppid "
              "-s --sid --cols --columns --width --lines --rows -k -n")
DIFF_VALUES = E("-C -U -W --width -x --exclude -X --exclude-from -I --ignore-matching-lines -S --starting-file "
                "--label -L --from-file --to-file --palette --tabsize -F --show-function-line "
                "--horizon-lines --line-format --old-line-format --new-line-format --unchanged-line-format "
                "--old-group-format --new-group-format --unchanged-group-format --changed-group-format -D --ifdef")
DIFF_FLAGS = ("--normal -q --brief -s --report-identical-files -c --context -u --unified -e --ed -n --rcs -y "
              "--side-by-side --left-column --suppress-common-lines -p --show-c-function -t --expand-tabs -T "
              "--initial-tab --suppress-blank-empty -l --paginate -r --recursive --no-dereference -N --new-file "
              "--unidirectional-new-file --ignore-file-name-case --no-ignore-file-name-case -i --ignore-case -E "
              "--ignore-tab-expansion -Z --ignore-trailing-space -b --ignore-space-change -w --ignore-all-space -B "
              "--ignore-blank-lines -a --text --strip-trailing-cr -d --minimal --speed-large-files --color -v")
SUMS = "-b --binary -c --check --tag -t --text -z --zero --ignore-missing --quiet --status --strict -w --warn"
UNPACK = "-c --stdout -d --decompress -f --force -q --quiet -v --verbose -l --list -t --test -s --small -k --keep"

READERS: dict[str, Spec] = {}
"""Plain readers, in the order of the program table."""


def _add(names: str, spec: Spec) -> None:
    add(READERS, names, spec)


# Printers of file contents: every operand is read.
_add("cat", _r("-A --show-all -b --number-nonblank -e -E --show-ends -n --number -s --squeeze-blank -t -T "
               "--show-tabs -u -v --show-nonprinting",
               examples=(("cat README.md", "readonly safe reads"), ("cat ~/.ssh/id_rsa", "notsafe reads"),
                         ("cat -n src/app.py", "readonly safe reads"), ("cat -n ~/.ssh/id_ecdsa", "notsafe reads"),
                         ("cat -An a.txt", "readonly safe"), ("cat --sneaky a.txt", "notsafe"))))
_add("tac", _r("-b --before -r --regex", "-s --separator", examples=(("tac app.log", "readonly safe"),)))
_add("nl", _r("-p --no-renumber", "-b --body-numbering -d --section-delimiter -f --footer-numbering "
              "-h --header-numbering -i --line-increment -l --join-blank-lines -n --number-format "
              "-s --number-separator -v --starting-line-number -w --number-width",
              examples=(("nl -ba src/a.py", "readonly safe"), ("nl -ba ~/.netrc", "notsafe"))))
_add("od", _r("-v --output-duplicates -w --width --traditional -a -b -c -d -f -i -l -o -s -x -D -O -X -e -F -h -H -B",
              "-A --address-radix -j --skip-bytes -N --read-bytes -S --strings -t --format",
              examples=(("od -An -tx1 -N 16 a.bin", "readonly safe"),)))
_add("hexdump hd", _r("-b --one-byte-octal -X --one-byte-hex -c --one-byte-char -C --canonical -d --two-bytes-decimal "
                      "-o --two-bytes-octal -x --two-bytes-hex -L --color -v --no-squeezing -h -V",
                      "-n --length -s --skip -e --format", read_flags=E("-f --format-file"),
                      examples=(("hexdump -C a.bin", "readonly safe"), ("hexdump -f ~/.ssh/id_rsa x", "notsafe"))))
_add("strings", _r("-a --all -d --data -f --print-file-name -o -w --include-all-whitespace -s --output-separator "
                   "-w -v -V -h", "-n --bytes -t --radix -e --encoding -T --target -U --unicode",
                   numeric=True, examples=(("strings -n 8 build/app", "readonly safe"),)))
_add("rev", _r("-0 --zero -h -V", examples=(("rev a.txt", "readonly safe"),)))
_add("fold", _r("-b --bytes -s --spaces", "-w --width", numeric=True, examples=(("fold -w 80 a.txt", "readonly safe"),)))
_add("fmt", _r("-c --crown-margin -s --split-only -t --tagged-paragraph -u --uniform-spacing", "-p --prefix -w --width "
               "-g --goal", numeric=True, examples=(("fmt -w 72 notes.txt", "readonly safe"),)))
_add("pr", _r("-a --across -c --show-control-chars -d --double-space -F -f --form-feed -J --join-lines -m --merge "
              "-r --no-file-warnings -t --omit-header -T --omit-pagination -v --show-nonprinting -e --expand-tabs "
              "-i --output-tabs -n --number-lines -s --separator -S --sep-string",
              "--columns -D --date-format -h --header -l --length -N --first-line-number -o --indent -w --width "
              "-W --page-width", numeric=True, examples=(("pr -2 -t a.txt", "readonly safe"),)))
_add("expand unexpand", _r("-i --initial -a --all --first-only", "-t --tabs", numeric=True,
                           examples=(("expand -t 4 a.py", "readonly safe"),)))
_add("column", _r("-t --table -d --table-noheadings -e --table-header-repeat -L --keep-empty-lines -J --json "
                  "-x --fillrows -n -h -V", "-N --table-columns -l --table-columns-limit -E --table-noextreme "
                  "-H --table-hide -R --table-right -T --table-truncate -W --table-wrap -O --table-order "
                  "--table-name -r --tree -i --tree-id -p --tree-parent -c --output-width -o --output-separator "
                  "-s --separator -C --table-column", examples=(("column -t -s, a.csv", "readonly safe"),)))
_add("colrm", _r("-h -V", examples=(("colrm 1 4 < a.txt", "readonly safe"),)))
_add("look", _r("-a --alternative -d --alphanum -f --ignore-case -h -V", "-t --terminate", operands="pattern",
                examples=(("look foo words.txt", "readonly safe"),)))
_add("md5sum sha1sum sha224sum sha256sum sha384sum sha512sum sum",
     _r(SUMS + " -r -s --sysv", examples=(("sha256sum dist/*.whl", "readonly safe"),
                                          ("sha256sum -c SHA256SUMS", "readonly safe"))))
_add("b2sum cksum", _r(SUMS + " --untagged --debug --base64 --raw", "-l --length -a --algorithm",
                       examples=(("cksum a.bin", "readonly safe"),)))
_add("base32 base64 basenc", _r("-d --decode -i --ignore-garbage -D --base64 --base64url --base32 --base32hex --base16 "
                                "--base2msbf --base2lsbf --z85", "-w --wrap -b --break",
                                examples=(("base64 -d blob.txt", "readonly safe"), ("base64 -w0 a.png", "readonly safe"),
                                          ("base64 ~/.ssh/id_rsa", "notsafe"))))
_add("zcat bzcat xzcat zstdcat lz4cat", _r(UNPACK + " -L --license -r --recursive -N --name -n --no-name",
                                           "-T --threads", examples=(("zcat logs/a.log.gz", "readonly safe"),)))
_add("zmore", _r("", examples=(("zmore a.gz", "readonly safe"),)))
_add("more", _r("-d --silent -f --logical -l --no-pause -c --print-over -p --clean-print -e --exit-on-eof "
                "-s --squeeze -u --plain -h -V", "-n --lines", numeric=True,
                examples=(("more README.md", "readonly safe"),)))
_add("most", _r("-b -C -s -t -u -w -c -d -M -r -z", examples=(("most README.md", "readonly safe"),)))
_add("bat batcat", _r("-A --show-all -p --plain -n --number -P --no-paging -d --diff -u --unbuffered -f --force-colorization "
                      "--list-themes --list-languages -L --no-config --no-custom-assets -h -V --chop-long-lines -S",
                      "-l --language -H --highlight-line -r --line-range --style --theme --color --decorations "
                      "--paging --wrap --terminal-width --tabs --file-name --diff-context --italic-text "
                      "-m --map-syntax --ignored-suffix --nonprintable-notation --binary --strip-ansi",
                      exec_flags=E("--pager"),
                      examples=(("bat -n src/app.py", "readonly safe"), ("bat --pager 'sh -c id' f", "executes notsafe"),
                                ("bat --plain --paging=never a.py", "readonly safe"))))
_add("head", _r("-q --quiet --silent -v --verbose -z --zero-terminated", "-n --lines -c --bytes", numeric=True,
                examples=(("head -n 20 src/app.py", "readonly safe reads"), ("head -5 /etc/shadow", "notsafe"),
                          ("head -20 a.txt", "readonly safe"), ("head -n 5 ~/.aws/credentials", "notsafe reads"),
                          ("head -c 100 a.bin", "readonly safe"))))
_add("tail", _r("-f --follow -F -q --quiet --silent --retry -v --verbose -z --zero-terminated -r",
                "-n --lines -c --bytes --pid -s --sleep-interval --max-unchanged-stats", numeric=True,
                examples=(("tail -f logs/app.log", "readonly safe"), ("tail -n +3 a.csv", "readonly safe"),
                          ("tail -50 app.log", "readonly safe"), ("tail -n 1 ~/.ssh/id_rsa", "notsafe"))))
_add("less", _r("-a -A -B -c -C -d -e -E -f -F -g -G -i -I -J -K -L -m -M -n -N -q -Q -r -R -s -S -u -U -V -w -W -X "
                "--quit-at-eof --QUIT-AT-EOF --quit-if-one-screen --ignore-case --IGNORE-CASE --LONG-PROMPT "
                "--line-numbers --LINE-NUMBERS --quiet --raw-control-chars --RAW-CONTROL-CHARS --squeeze-blank-lines "
                "--chop-long-lines --no-init --no-lessopen --mouse --follow-name --incsearch --use-color --no-keypad "
                "--no-histdups --file-size --status-column --silent",
                "-b --buffers -h --max-back-scroll -j --jump-target -p --pattern -P --prompt -t --tag -x --tabs "
                "-y --max-forw-scroll -z --window -# --shift --line-num-width --status-col-width --wheel-lines "
                "--rscroll -D --color",
                write_flags=E("-o -O --log-file --LOG-FILE"), load_flags=E("-k --lesskey-file --lesskey-src"),
                read_flags=E("-T --tag-file"), handler="plus_command",
                examples=(("less README.md", "readonly safe"), ("less -o /tmp/log f", "writes"),
                          ("less -R app.log", "readonly safe"), ("less '+!id' f", "executes notsafe"))))
_add("wc", _r("-c --bytes -m --chars -l --lines -L --max-line-length -w --words --total", read_flags=E("--files0-from"),
              examples=(("wc -l src/*.py", "readonly safe"), ("wc --files0-from=~/.ssh/id_rsa", "notsafe reads"))))

# Facts about files: names and metadata, not contents. realpath and readlink only print a path (no option of
# theirs opens a file), so their operands are words: ``readlink -f "$0"`` is safe whatever ``$0`` holds.
_add("file", _r("-v -z --uncompress -Z --uncompress-noreport -b --brief -c --checking-printout -i -I --mime --apple "
                "--extension --mime-type --mime-encoding -k --keep-going -l --list -L --dereference -h --no-dereference "
                "-n --no-buffer -N --no-pad -0 --print0 -p --preserve-date -r --raw -s --special-files -S --no-sandbox "
                "-d --debug", "-e --exclude --exclude-quiet -F --separator -P --parameter", operands="list",
                read_flags=E("-m --magic-file -f --files-from"),
                examples=(("file build/app", "readonly safe"), ("file -b --mime-type a.png", "readonly safe"))))
_add("stat", _r("-L --dereference -f --file-system -t --terse --cached", "-c --format --printf", operands="list",
                examples=(("stat -c %s a.txt", "readonly safe"), ("stat ~/.ssh/id_rsa", "readonly safe"))))
_add("realpath", _r("-e --canonicalize-existing -m --canonicalize-missing -L --logical -P --physical -q --quiet "
                    "-s --strip --no-symlinks -z --zero", "--relative-to --relative-base", operands="none",
                    examples=(("realpath --relative-to=. src", "readonly safe"),)))
_add("readlink", _r("-f --canonicalize -e --canonicalize-existing -m --canonicalize-missing -n --no-newline "
                    "-q --quiet -s --silent -v --verbose -z --zero", operands="none",
                    examples=(("readlink -f build/link", "readonly safe"),)))
_add("namei", _r("-x --mountpoints -m --modes -o --owners -l --long -n --nosymlinks -v --vertical -Z --context -h -V",
                 operands="list", examples=(("namei -l src/a.py", "readonly safe"),)))
_add("lsattr", _r("-R -V -a -d -l -p -v", operands="list", examples=(("lsattr a.txt", "readonly safe"),)))
_add("getfacl", _r("-a --access -d --default -c --omit-header -e --all-effective -E --no-effective -s --skip-base "
                   "-R --recursive -L --logical -P --physical -t --tabular -n --numeric -p --absolute-names -v",
                   operands="list", examples=(("getfacl src", "readonly safe"),)))
_add("ls dir vdir", _r(LS_FLAGS, " ".join(sorted(LS_VALUES)), operands="list",
                       examples=(("ls -la", "readonly safe"), ("ls ~/.ssh", "readonly safe"),
                                 ("ls -lah src", "readonly safe"), ("ls --color=auto -1", "readonly safe"),
                                 ("ls -l --sort=time src", "readonly safe"), ("ls --frobnicate", "notsafe"))))
_add("tree", _r("-a -d -l -f -x -q -N -Q -p -u -g -s -h --si --du -D -F -r -t -c -U -v -i -A -S -n -C -X -J "
                "--noreport --dirsfirst --filesfirst --inodes --device --prune --matchdirs --gitignore --info "
                "--metafirst --ignore-case --nolinks --condense --hintro --houtro",
                "-L -P -I --filelimit --timefmt --sort --charset -H -T --gitfile --infofile --hyperlink",
                operands="list", write_flags=E("-o"),
                examples=(("tree -L 2 src", "readonly safe"), ("tree -a -I node_modules", "readonly safe"),
                          ("tree -o ~/.bashrc", "writes notsafe"))))
_add("exa eza", _r("-1 --oneline -l --long -G --grid -x --across -R --recurse -T --tree -F --classify -a --all "
                   "-A --almost-all -d --list-dirs -r --reverse -D --only-dirs -f --only-files "
                   "--group-directories-first --git-ignore -b --binary -B --bytes -g --group -h --header -H --links "
                   "-i --inode -m --modified -M --mounts -n --numeric -S --blocksize -u --accessed -U --created "
                   "--changed --no-permissions --no-filesize --no-user --no-time --git --no-git --git-repos "
                   "--git-repos-no-status --icons --no-icons -@ --extended -Z --context -o --octal-permissions "
                   "--hyperlink --absolute --color --colour --no-quotes --total-size -X --dereference -s",
                   "-L --level --sort -I --ignore-glob --time-style -t --time -w --width --color-scale "
                   "--colour-scale --color-scale-mode", operands="list",
                   examples=(("eza -la --git", "readonly safe"),)))
_add("lsd", _r("-a --all -A --almost-all -F --classify -l --long -1 --oneline -R --recursive -d --directory-only "
               "-h --human-readable --tree --total-size -t --timesort -S --sizesort -X --extensionsort -v "
               "--versionsort -r --reverse --classic --no-symlink --header -L --dereference -i --inode -g --git "
               "-Z --context -N --literal -U --no-sort", "--depth --group-dirs --group-directories-first --blocks "
               "--color --icon --icon-theme --date --sort -I --ignore-glob --permission --size --hyperlink",
               operands="list", load_flags=E("--config-file"), examples=(("lsd -la", "readonly safe"),)))
_add("du", _r("-0 --null -a --all --apparent-size -b --bytes -c --total -D --dereference-args --summarize -H -h "
              "--human-readable --inodes -k -L --dereference -l --count-links -m -P --no-dereference -S "
              "--separate-dirs --si -s -x --one-file-system --time",
              "-B --block-size -d --max-depth -t --threshold --time-style --exclude", operands="list",
              read_flags=E("--files0-from -X --exclude-from"),
              examples=(("du -sh node_modules", "readonly safe"), ("du -h -d 1 .", "readonly safe"))))

# Facts about the machine, the user and the processes: no operand is a path.
_add("df", _r("-a --all -h --human-readable -H --si -i --inodes -k -m -g -l --local --no-sync --output -P --portability "
              "--sync --total -T --print-type -v", "-B --block-size -t --type -x --exclude-type", operands="none",
              examples=(("df -h", "readonly safe"), ("df -hT .", "readonly safe"))))
_add("free", _r("-b --bytes --kilo --mega --giga --tera --peta -k --kibi -m --mebi -g --gibi --tebi --pebi -h --human "
                "--si -l --lohi -t --total -v --committed -w --wide -L --line -V", "-s --seconds -c --count",
                operands="none", examples=(("free -h", "readonly safe"), ("free -m", "readonly safe"))))
_add("uptime", _r("-p --pretty -h -s --since -V -r --raw -c --container", operands="none",
                  examples=(("uptime", "readonly safe"), ("uptime -p", "readonly safe"))))
_add("nproc", _r("--all", "--ignore", operands="none", examples=(("nproc", "readonly safe"),)))
_add("uname arch", _r("-a --all -s --kernel-name -n --nodename -r --kernel-release -v --kernel-version -m --machine "
                      "-p --processor -i --hardware-platform -o --operating-system", operands="none",
                      examples=(("uname -a", "readonly safe"), ("uname -sm", "readonly safe"))))
_add("id", _r("-a -Z --context -g --group -G --groups -n --name -r --real -u --user -z --zero", operands="none",
              examples=(("id -u", "readonly safe"), ("id -un", "readonly safe"))))
_add("whoami logname users hostid groups tty true false : times sw_vers",
     _r("-s --silent --quiet", operands="none", whole=E("-productName -productVersion -buildVersion"),
        examples=(("whoami", "readonly safe"), ("groups", "readonly safe"), ("true", "readonly safe"))))
_add("printenv", _r("-0 --null", operands="none", examples=(("printenv HOME", "readonly safe"),
                                                           ("printenv", "notsafe"))))
_add("pwd dirs", _r("-L --logical -P --physical -c -l -p -v", operands="none",
                    examples=(("pwd", "readonly safe"), ("pwd -P", "readonly safe"))))
_add("jobs", _r("-l -n -p -r -s", operands="none", examples=(("jobs -l", "readonly safe"),)))
_add("getconf", _r("-a", "-v", operands="none", examples=(("getconf PAGESIZE", "readonly safe"),)))
_add("locale", _r("-a --all-locales -m --charmaps -c --category-name -k --keyword-name -v --verbose", operands="none",
                  examples=(("locale -a", "readonly safe"),)))
_add("getent", _r("-A --no-addrconfig -i --no-idn --usage -V", "-s --service", operands="none",
                  examples=(("getent hosts localhost", "readonly safe"),)))
_add("ulimit umask", _r("-a -H -S -b -c -d -e -f -i -k -l -m -n -p -P -q -r -R -s -t -T -u -v -x", operands="none",
                        examples=(("ulimit -n", "readonly safe"), ("umask -S", "readonly safe"))))
_add("who w", _r("-a --all -b --boot -d --dead -H --heading -l --login -m -p --process -q --count -r --runlevel "
                 "-s --short -t --time -T -w --mesg -u --users --lookup --ips -h --no-header -f --from -i -o "
                 "--old-style -n --no-current", operands="none", examples=(("who -b", "readonly safe"),)))
_add("last lastlog", _r("-a --hostlast -d --dns -F --fulltimes -i --ip -R --nohostname -w --fullnames -x --system",
                        "-n --limit -s --since -t --until -p --present -b --before -u --user --time-format",
                        operands="none", read_flags=E("-f --file"), numeric=True,
                        examples=(("last -n 5", "readonly safe"),)))
_add("pgrep pidof", _r("-l --list-name -a --list-full -v --inverse -w --lightweight -c --count -f --full -i "
                       "--ignore-case -n --newest -o --oldest -x --exact -L --logpidfile -A --ignore-ancestors -h -V "
                       "-s --single-shot -q -z",
                       "-d --delimiter -g --pgroup -G --group -O --older -P --parent --session -t --terminal "
                       "-u --euid -U --uid -F --pidfile -r --runstates --cgroup --ns --nslist --signal",
                       operands="none", examples=(("pgrep -fl python", "readonly safe"), ("pidof nginx", "readonly safe"))))
_add("pstree", _r("-a --arguments -A --ascii -c --compact-not -g --show-pgids -G --vt100 -h --highlight-all -l --long "
                  "-n --numeric-sort -p --show-pids -s --show-parents -S --ns-changes -t --thread-names -T "
                  "--hide-threads -u --uid-changes -U --unicode -Z --security-context -V",
                  "-C --color -H --highlight-pid -N --ns-sort", operands="none",
                  examples=(("pstree -p", "readonly safe"),)))
_add("lscpu", _r("-a --all -b --online -c --offline -e --extended -J --json -p --parse -x --hex -y --physical "
                 "-B --bytes -C --caches --output-all -V", "-s --sysroot", operands="none",
                 examples=(("lscpu", "readonly safe"),)))
_add("lsblk", _r("-a --all -b --bytes -D --discard -d --nodeps -f --fs -h -i --ascii -J --json -l --list -M --merge "
                 "-m --perms -n --noheadings -N --nvme -O --output-all -P --pairs -p --paths -r --raw -S --scsi "
                 "-s --inverse -T --tree -t --topology -u --usage -v --virtio -z --zoned -A --noempty -V",
                 "-e --exclude -I --include -o --output -w --width -x --sort -E --dedup -Q --filter --sysroot "
                 "--properties-by", operands="none", examples=(("lsblk -f", "readonly safe"),)))
_add("findmnt", _r("-A --all -a --ascii -b --bytes -c --canonicalize -D --df -e --evaluate -f --first-only -i "
                   "--invert -J --json -k --kernel -l --list -m --mtab -n --noheadings -P --pairs -r --raw -R "
                   "--submounts -s --fstab -U --uniq -u --notruncate -v --nofsroot -x --verify --verbose -y "
                   "--shadowed --real --pseudo -V", "-F --tab-file -M --mountpoint -N --task -O --options -o --output "
                   "-S --source -T --target -t --types -w --timeout -Q --filter -d --direction --id --uniq-id",
                   operands="none", examples=(("findmnt -T .", "readonly safe"),)))
_add("blkid", _r("-d -g -i -k -l -L -U -p -V -h", "-o -s -t -n -u -S -O -w", operands="none", read_flags=E("-c"),
                 examples=(("blkid -o list", "readonly safe"),)))
_add("vmstat iostat mpstat", _r("-a --active -f --forks -m --slabs -n --one-header -s --stats -d --disk -D "
                                "--disk-sum -t --timestamp -w --wide -y --no-first -V -c -h -k -N -x -z -H "
                                "--human --pretty --compact -A -T -u",
                                "-p --partition -S --unit -j -o -g --dec -I -P -N", operands="none",
                                examples=(("vmstat 1 3", "readonly safe"), ("iostat -xz 1 2", "readonly safe"))))
_add("sensors", _r("-u -j -f -A", operands="none", load_flags=E("-c --config-file"), mutate_flags=E("-s --set"),
                   examples=(("sensors", "readonly safe"), ("sensors -s", "mutates notsafe"))))
_add("lsusb lspci lsmod lsns lsipc",
     _r("-v --verbose -t --tree -V -n -k -b -D -P -x -m -q -Q -M -J --json -l --list -r --raw -u --notruncate "
        "--output-all -W -T -e -g -i -a -A -f -j", "-s -d -p -H -O -o --output --task --type -N --output-width "
        "--id --shmems --queues --semaphores --time-format", operands="none",
        examples=(("lspci -nn", "readonly safe"), ("lsusb -t", "readonly safe"), ("lsmod", "readonly safe"))))
_add("pidstat", _r("-d -h -H -I -l -r -R -s -t -U -u -v -w --human", "-p -G -C -T --dec", operands="none",
                   exec_flags=E("-e"),
                   examples=(("pidstat 1 3", "readonly safe"), ("pidstat -e /bin/sh", "executes notsafe"))))
_add("ps", _r("-A -e -a -d -N --deselect -T -r -x -f -F -l -j -y -w -H -L -m -M -Z -c -V --forest --headers "
              "--no-headers --no-heading --no-header --cumulative --context --info -s -X -v", " ".join(sorted(PS_VALUES)), operands="none",
              examples=(("ps aux", "readonly safe"), ("ps -ef", "readonly safe"), ("ps -o pid,cmd -p 1", "readonly safe"))))
_add("top htop btop", _r("-b -c -H -i -S -1 -e -E -C -M -t --tree --no-color --no-mouse --no-unicode --readonly "
                         "--batch --utf-force --low-color -a -w",
                         "-n -d -p -u -U -o -O -s -l --delay --pid --user --sort-key --max-iterations",
                         operands="none", examples=(("top -b -n 1", "readonly safe"), ("htop -u me", "readonly safe"))))
_add("atop", _r("-a -1 -c -g -m -d -n -s -v -C -M -D -N -A -f -F -G -x -y -L", "-r -b -e -S -P", operands="none",
                write_flags=E("-w"), examples=(("atop 1 3", "readonly safe"), ("atop -w /tmp/raw 1", "writes"))))
_add("date", _r("--debug -I --iso-8601 --resolution -R --rfc-email -u --utc --universal -j -n", "-d --date "
                "--rfc-3339 -r --reference -I -s --set -v", operands="none", read_flags=E("-f --file"), mutate_flags=E("-s --set"),
                examples=(("date +%s", "readonly safe"), ("date -s '2020-01-01'", "mutates notsafe"),
                          ("date -u +%Y-%m-%dT%H:%M:%SZ", "readonly safe"), ("date -d yesterday +%F", "readonly safe"),
                          ("date -f ~/.aws/credentials", "notsafe reads"), ("date -Iseconds", "readonly safe"))))
_add("hostname", _r("-a --alias -A --all-fqdns -d --domain -f --fqdn --long -i --ip-address -I --all-ip-addresses "
                    "-s --short -y --yp --nis -V", "-F --file", operands="none", handler="operand_mutates",
                    does="sets the host name", mutate_flags=E("-F --file -b --boot"),
                    examples=(("hostname -I", "readonly safe"), ("hostname evil", "mutates notsafe"),
                              ("hostname -F /tmp/name", "mutates notsafe"))))

# Words and numbers: nothing is a path.
_add("echo", _r("-n -e -E", operands="none", handler="words_only",
                examples=(("echo hello", "readonly safe"), ("echo -n done", "readonly safe"),
                          ("echo '--- done ---'", "readonly safe"), ("echo -x", "readonly safe"))))
_add("test [", _r("", operands="none", handler="words_only",
                  examples=(("test -f setup.py", "readonly safe"), ("[ -d src ]", "readonly safe"),
                            ("[ \"$a\" = --help ]", "readonly safe"))))
_add("printf", _r("", "-v", operands="none", posix=True,
                  examples=(("printf '%s\\n' a b", "readonly safe"), ("printf -v x '%d' 3", "readonly safe"))))
_add("sleep yes factor tsort expr shift getopts wait help uuidgen mcookie cal clear reset tput",
     _r("-1 -3 -y -j -m -s -r -t -x -T -c -V -h -d -l -p -f -n -e -E -S -V -q --random --time --hex --md5 "
        "--sha1 --sixel -3 --monday --sunday --julian --year --twelve --one --three --vertical",
        "-n --count -N --namespace --name", operands="none", numeric=True,
        examples=(("sleep 2", "readonly safe"), ("uuidgen", "readonly safe"), ("expr 1 + 2", "readonly safe"))))
_add("read", _r("-r -s -e -a", "-a -d -i -n -N -p -t -u", operands="none", examples=(("read -r line", "readonly safe"),
                                                                                     ("read -rp 'ok? ' a", "readonly safe"))))
_add("seq", _r("-w --equal-width", "-f --format -s --separator", operands="none", numeric=True,
               examples=(("seq 1 10", "readonly safe"), ("seq -w 1 10", "readonly safe"), ("seq 10 -1 1", "readonly safe"))))
_add("numfmt", _r("--debug --grouping --header -z --zero-terminated", "-d --delimiter --field --format --from "
                  "--from-unit --invalid --padding --round --suffix --to --to-unit", operands="none",
                  examples=(("numfmt --to=iec 1048576", "readonly safe"),)))
_add("basename", _r("-a --multiple -z --zero", "-s --suffix", operands="none",
                    examples=(("basename /a/b.txt .txt", "readonly safe"), ("basename -s .py a.py", "readonly safe"))))
_add("dirname", _r("-z --zero", operands="none", examples=(("dirname src/a.py", "readonly safe"),)))
_add("type", _r("-a -f -p -P -t", operands="none", examples=(("type -a python3", "readonly safe"),)))
_add("which", _r("-a --all -s --skip-alias --skip-functions --skip-dot --skip-tilde --show-dot --show-tilde "
                 "--tty-only -i --read-alias --read-functions -V -v", operands="none",
                 examples=(("which python3", "readonly safe"), ("which -a node", "readonly safe"))))
_add("whereis", _r("-b -m -s -u -l -f -g", "-B -M -S", operands="none", examples=(("whereis ls", "readonly safe"),)))
_add("apropos whatis", _r("-d --debug -v --verbose -r --regex -w --wildcard -e --exact -a --and -l --long",
                          "-s --sections --section -m --systems -M --manpath -L --locale", operands="none",
                          load_flags=E("-C --config-file"), examples=(("apropos -s 1 copy", "readonly safe"),)))
_add("info", _r("-a --all -k --apropos -w --where --show-options --vi-keys --strict-node-location",
                "-d --directory -n --node -O --index-search --init-file", operands="read",
                write_flags=E("-o --output --dribble"), read_flags=E("-f --file --restore"),
                examples=(("info coreutils", "readonly safe"), ("info -o ~/.bashrc ls", "writes notsafe"))))
_add("tldr", _r("-l --list -v --verbose -u --update -h -V -r --raw -q --quiet -c --color", "-p --platform -L --language",
                operands="none", network=False, examples=(("tldr tar", "readonly safe"),)))
_add("man", _r("-a --all -f --whatis -k --apropos -K --global-apropos -w --where --path -W --where-cat -c --catman "
               "-d --debug -D --default -u --update -i --ignore-case -I --match-case --regex --wildcard --names-only "
               "--no-subpages --no-hyphenation --no-justification -7 --ascii -Z --ditroff -t --troff",
               "-M --manpath -S -s --sections -L --locale -m --systems -E --encoding -R --recode -e --extension "
               "-p --preprocessor -T --troff-device", load_flags=E("-C --config-file"), operands="read",
               exec_flags=E("-P --pager -H --html -X --gxditview -B"),
               examples=(("man tar", "readonly safe"), ("man -P 'sh -c id' ls", "executes notsafe"),
                         ("man -k compress", "readonly safe"), ("man -l ~/.ssh/id_rsa", "notsafe"),
                         ("man 5 crontab", "readonly safe"), ("man ~/.ssh/id_rsa", "notsafe"))))

# man and info show a local file when a name has a slash (``man ./x.1``): their operands are taken as reads, which
# for a plain page name (``man tar``) is a harmless name in the project.

# Searchers: the first operand is the pattern (unless an option gives it), the rest are read.
_add("grep egrep fgrep rgrep", _r(GREP_FLAGS, " ".join(sorted(GREP_VALUES - E("-f --file --exclude-from"))),
                                  operands="pattern", numeric=True, read_flags=E("-f --file --exclude-from"),
                                  pattern_opts=E("-e --regexp -f --file"), handler="search_globs",
                                  examples=(("grep -rn TODO src", "readonly safe reads"),
                                            ("grep -r password ~/.aws", "notsafe"),
                                            ("grep -e foo -e bar a.txt", "readonly safe"),
                                            ("grep -rn --include='*.py' foo src", "readonly safe"),
                                            ("grep -f ~/.netrc x", "notsafe reads"), ("grep -c x a.txt", "readonly safe"),
                                            ("grep -m 1 -o 'v[0-9.]*' CHANGELOG.md", "readonly safe"))))
_add("zgrep", _r(GREP_FLAGS, " ".join(sorted(GREP_VALUES - E("-f --file"))), operands="pattern",
                 read_flags=E("-f --file"), pattern_opts=E("-e --regexp -f --file"),
                 examples=(("zgrep -i error logs/a.log.gz", "readonly safe"),)))
_add("rg ripgrep", _r(RG_FLAGS, " ".join(sorted(RG_VALUES - E("-f --file --ignore-file"))), operands="pattern",
                      numeric=False, read_flags=E("-f --file --ignore-file"), pattern_opts=E("-e --regexp -f --file"),
                      exec_flags=E("--pre"), handler="search_globs",
                      examples=(("rg -n 'fn main' src", "readonly safe"), ("rg --pre ./x.sh foo", "executes notsafe"),
                                ("rg -uu --hidden -g '!*.lock' foo", "readonly safe"),
                                ("rg -l TODO --type py", "readonly safe"), ("rg --files", "readonly safe"))))
_add("ag", _r("-a --all-types -i --ignore-case -s --case-sensitive -S --smart-case -Q --literal -w --word-regexp "
              "-v --invert-match -l --files-with-matches -L --files-without-matches -c --count -o --only-matching "
              "-u --unrestricted -U --skip-vcs-ignores -t --all-text -f --follow --hidden --nocolor --color "
              "--noheading --heading --column --numbers --nonumbers --vimgrep --ackmate --silent --stats "
              "-z --search-zip -0 --null --print0 --nogroup --group --one-device --filename --nofilename "
              "--print-long-lines --passthrough --nobreak --break --no-numbers -h -V --list-file-types --after --before "
              "--context",
              "-G --file-search-regex -g --filename-pattern -A -B -C --ignore --ignore-dir -m --max-count "
              "--depth -W --width --color-match --color-path --color-line-number --pager",
              operands="pattern", read_flags=E("-p --path-to-ignore"), exec_flags=E("--pager"),
              examples=(("ag TODO", "readonly safe"), ("ag --pager 'sh -c id' x", "executes notsafe"))))
_add("ack", Spec(operands="pattern", does="runs ack, which obeys a project's .ackrc (a pager, Perl code in --output)",
                 examples=(("ack foo", "notsafe"),)))

# Fields, lines and columns.
_add("cut", _r("-n --complement -s --only-delimited -z --zero-terminated", " ".join(sorted(CUT_VALUES)),
               examples=(("cut -d, -f1 a.csv", "readonly safe"), ("cut -c1-10 ~/.ssh/id_rsa", "notsafe"))))
_add("paste", _r("-s --serial -z --zero-terminated", "-d --delimiters", examples=(("paste -sd, a.txt", "readonly safe"),)))
_add("join", _r("-i --ignore-case --check-order --nocheck-order --header -z --zero-terminated",
                "-a -e -j -o -t -v -1 -2", examples=(("join -t, a.csv b.csv", "readonly safe"),)))
_add("comm", _r("-1 -2 -3 --check-order --nocheck-order --total -z --zero-terminated", "--output-delimiter",
                examples=(("comm -12 a b", "readonly safe"),)))
_add("tr", _r("-c -C --complement -d --delete -s --squeeze-repeats -t --truncate-set1", operands="none",
              examples=(("tr a-z A-Z", "readonly safe"), ("tr -d '\\r' < a.txt", "readonly safe"))))
_add("sort", _r("-b --ignore-leading-blanks -d --dictionary-order -f --ignore-case -g --general-numeric-sort "
                "-i --ignore-nonprinting -M --month-sort -h --human-numeric-sort -n --numeric-sort -R --random-sort "
                "-r --reverse -V --version-sort -c --check -C --debug -m --merge -s --stable -u --unique "
                "-z --zero-terminated", "-k --key -t --field-separator -S --buffer-size -T --temporary-directory "
                "--parallel --batch-size --sort", write_flags=E("-o --output"), exec_flags=E("--compress-program"),
                read_flags=E("--files0-from --random-source"),
                examples=(("sort -u names.txt", "readonly safe"), ("sort -o out.txt in.txt", "writes"),
                          ("sort -t, -k2 -n a.csv", "readonly safe"), ("sort -o ~/.bashrc x", "writes notsafe"),
                          ("sort --compress-program=sh x", "executes notsafe"),
                          ("sort --files0-from=~/.ssh/id_rsa", "notsafe reads"))))
_add("uniq", _r("-c --count -d --repeated -D --all-repeated --group -i --ignore-case -u --unique -z --zero-terminated",
                "-f --skip-fields -s --skip-chars -w --check-chars", operands="in_out",
                examples=(("uniq -c a.txt", "readonly safe"), ("uniq a.txt b.txt", "writes"))))
_add("shuf", _r("-e --echo -r --repeat -z --zero-terminated", "-i --input-range -n --head-count",
                write_flags=E("-o --output"), read_flags=E("--random-source"),
                examples=(("shuf -n 3 a.txt", "readonly safe"),)))

# Comparers.
_add("diff colordiff", _r(DIFF_FLAGS, " ".join(sorted(DIFF_VALUES - E("-X --exclude-from --from-file --to-file"))),
                          read_flags=E("-X --exclude-from --from-file --to-file"),
                          examples=(("diff -u a.py b.py", "readonly safe"), ("diff -ru old new", "readonly safe"),
                                    ("diff --from-file ~/.ssh/id_rsa a", "notsafe reads"))))
_add("diff3", _r("-A --show-all -e --ed -E --show-overlap -x --overlap-only -X -3 --easy-only -m --merge -T "
                 "--initial-tab -a --text -i --strip-trailing-cr", "-L --label", exec_flags=E("--diff-program"),
                 examples=(("diff3 mine old yours", "readonly safe"),)))
_add("cmp", _r("-b --print-bytes -l --verbose -s --quiet --silent -v", "-i --ignore-initial -n --bytes",
               examples=(("cmp a.bin b.bin", "readonly safe"),)))
_add("sdiff", _r("-a --text -b --ignore-space-change -B --ignore-blank-lines -d --minimal -E --ignore-tab-expansion "
                 "-Z --ignore-trailing-space -H --speed-large-files -i --ignore-case -l --left-column -s "
                 "--suppress-common-lines -t --expand-tabs -W --ignore-all-space --strip-trailing-cr -v",
                 "-I --ignore-matching-lines -w --width --tabsize", write_flags=E("-o --output"),
                 exec_flags=E("--diff-program"),
                 examples=(("sdiff -o merged a b", "writes"), ("sdiff -s a b", "readonly safe"))))
_add("icdiff", _r("-H --highlight -N --line-numbers --no-bold --show-all-spaces --strip-trailing-cr -W --whole-file "
                  "-r --recursive --no-headers --exclude-lines --is-git-diff -h",
                  "--cols -L --label -U --unified --tabsize --color-map --head --encoding -E --exclude-lines "
                  "--output-encoding", examples=(("icdiff a.py b.py", "readonly safe"),)))
_add("delta", _r("-s --side-by-side -n --line-numbers --light --dark --navigate --hyperlinks --no-gitconfig --raw "
                 "--color-only --keep-plus-minus-markers --relative-paths --show-config --list-syntax-themes "
                 "--show-syntax-themes --show-themes --diff-highlight --diff-so-fancy -h -V --list-languages",
                 "-w --width --syntax-theme --features --tabs --wrap-max-lines --max-line-length --diff-args "
                 "--line-fill-method", load_flags=E("--config"), exec_flags=E("--pager"),
                 examples=(("delta a.py b.py", "readonly safe"), ("delta --pager 'sh -c id' a b", "executes notsafe"))))
_add("difft", _r("--skip-unchanged --ignore-comments --check-only --list-languages --strip-cr --missing-as-empty "
                 "--sort-paths --dump-syntax --dump-ts -h -V", "--color --display --context --width --tab-width "
                 "--syntax-highlight --background --language --override --byte-limit --graph-limit "
                 "--parse-error-limit --exit-code", examples=(("difft a.py b.py", "readonly safe"),)))

# Structured data.
_add("jq gojq jaq", _r(JQ_FLAGS, "--arg --argjson --indent", operands="pattern", handler="jq",
                       read_flags=E("--slurpfile --rawfile"), load_flags=E("-L"), pattern_opts=E("-f --from-file"),
                       examples=(("jq .name package.json", "readonly safe"), ("jq -r '.[]' < a.json", "readonly safe"),
                                 ("jq -r .name package.json", "readonly safe"),
                                 ("jq --arg v 1 '.a == $v' a.json", "readonly safe"),
                                 ("jq --rawfile k ~/.ssh/id_rsa -n '$k'", "notsafe reads"),
                                 ("jq --slurpfile k ~/.aws/credentials -n '$k'", "notsafe reads"),
                                 ("jq -n env", "notsafe"), ("jq -n '$ENV.AWS_SECRET_ACCESS_KEY'", "notsafe"))))
_add("yq", _r("-C --colors -M --no-colors -N --no-doc -P --prettyPrint -r --unwrapScalar -e --exit-status -n "
              "--null-input -0 --nul-output -v --verbose --no-colors -j --tojson -y --yaml-output -Y "
              "--yaml-roundtrip -c -s -S -R --tab --header-preprocess --front-matter -h -V",
              "-o --output-format -p --input-format -I --indent --arg --argjson --expression --xml-attribute-prefix "
              "--xml-content-name", operands="pattern", handler="jq", inplace_flags=E("-i --inplace --in-place"),
              pattern_opts=E("--from-file"), read_flags=E("--from-file"),
              examples=(("yq '.a' x.yaml", "readonly safe"), ("yq -i '.a=1' x.yaml", "writes"),
                        ("yq -o json '.' x.yaml", "readonly safe"), ("yq -n 'load(\"/etc/shadow\")'", "notsafe"),
                        ("yq -n 'strenv(GITHUB_TOKEN)'", "notsafe"))))
_add("xmllint", _r("--format --noout --nonet --noblanks --c14n --c14n11 --exc-c14n --html --xmlout --nowarning "
                   "--quiet --debug --recover --huge --timing --stream --walker --dropdtd --nsclean --nocdata "
                   "--nocompact --noenc --pedantic --sax --sax1 --push --memory --auto --htmlout --nodefdtd --nodict "
                   "--copy --oldxml10 --noxincludenode --nofixup-base-uris --nodefault",
                   "--xpath --pretty --encode --maxmem --path --maxmem --max-ampl",
                   read_flags=E("--schema --relaxng --dtdvalid --schematron"), write_flags=E("--output -o"),
                   examples=(("xmllint --format a.xml", "readonly safe"), ("xmllint --noent a.xml", "notsafe"),
                             ("xmllint --xpath '//a' a.xml", "readonly safe"))))
_add("xxd", _r("-a -autoskip -b -bits -C -capitalize -E -EBCDIC -e -i -include -p -ps -postscript -plain -r -revert "
               "-d -h -help -u -v -version", "-c -cols -g -groupsize -l -len -o -offset -s -seek -n -name -R",
               operands="in_out", whole=E("-cols -groupsize -len -offset -seek -name -autoskip -bits -capitalize "
                                          "-EBCDIC -include -ps -postscript -plain -revert -help -version"),
               examples=(("xxd a.bin", "readonly safe"), ("xxd -r dump a.bin", "writes"), ("xxd -l 64 a.bin", "readonly safe"))))
_add("iconv", _r("-l --list -c -s --silent --verbose --usage -V", "-f --from-code -t --to-code",
                 write_flags=E("-o --output"), examples=(("iconv -f latin1 -t utf-8 a.txt", "readonly safe"),)))
_add("envsubst", _r("-v --variables -h -V", operands="none", examples=(("envsubst < tpl.txt", "readonly safe"),)))

# Binaries.
_add("nm", _r("-a --debug-syms -A --print-file-name -B -C --demangle --no-demangle --recurse-limit --no-recurse-limit "
              "-D --dynamic -e -g --extern-only -j --just-symbols -l --line-numbers -n --numeric-sort -o -p --no-sort "
              "-P --portability -r --reverse-sort -S --print-size -s --print-armap --quiet --size-sort --special-syms "
              "--synthetic -u --undefined-only -U --defined-only -W --no-weak --with-symbol-versions -h -V",
              "-f --format --ifunc-chars -t --radix --target", load_flags=E("--plugin"),
              examples=(("nm -C build/app", "readonly safe"), ("nm --plugin /tmp/x.so a.o", "notsafe"))))
_add("objdump", _r("-a --archive-headers -f --file-headers -p --private-headers -h --section-headers --headers -x "
                   "--all-headers -d -D --disassemble-all -S --source --source-comment -s --full-contents -g "
                   "--debugging -e --debugging-tags -G --stabs -W --dwarf -L --process-links --ctf --sframe -t --syms "
                   "-T --dynamic-syms -r --reloc -R --dynamic-reloc -v -i --info -H --file-start-context -l "
                   "--line-numbers -F --file-offsets -C --demangle --recurse-limit --no-recurse-limit -w --wide "
                   "-z --disassemble-zeroes --no-addresses --prefix-addresses --show-raw-insn --no-show-raw-insn "
                   "--show-all-symbols --special-syms --inlines --dwarf-check --visualize-jumps --disassemble",
                   "-P --private -b --target -m --architecture -j --section -M --disassembler-options -E --endian "
                   "-I --include --unicode --start-address --stop-address --insn-width --adjust-vma --prefix "
                   "--prefix-strip --dwarf-depth --dwarf-start --ctf-parent",
                   examples=(("objdump -d a.o", "readonly safe"), ("objdump -h build/app", "readonly safe"))))
_add("readelf", _r("-a --all -h --file-header -l --program-headers --segments -S --section-headers --sections -g "
                   "--section-groups -t --section-details -e --headers -s --syms --symbols --dyn-syms --lto-syms "
                   "-n --notes -r --relocs -u --unwind -d --dynamic -V --version-info -A --arch-specific -c "
                   "--archive-index -D --use-dynamic -L --lint -I --histogram -W --wide -C --demangle -T "
                   "--silent-truncation -z --decompress -w --debug-dump -P --process-links -U --no-demangle "
                   "--recurse-limit --no-recurse-limit --sframe -H -v",
                   "-x --hex-dump -p --string-dump -R --relocated-dump --sym-base --dwarf-depth --dwarf-start --ctf "
                   "--ctf-parent --ctf-symbols --ctf-strings",
                   examples=(("readelf -h build/app", "readonly safe"), ("readelf -Ws a.so", "readonly safe"))))
_add("size c++filt addr2line", _r("-A -B -G --format -d -o -x -t --totals --common -a --addresses -C --demangle -f "
                                  "--functions -s --basenames -i --inlines -p --pretty-print -r --no-recurse-limit "
                                  "-R --recurse-limit -_ -n --no-strip-underscore -p --no-params -t --types -h -v",
                                  "--radix --target -b -e --exe -j --section -s --format",
                                  examples=(("size build/app", "readonly safe"), ("c++filt _ZN1a1bEv", "readonly safe"))))
_add("ldd", Spec(does="may run the program it inspects", examples=(("ldd ./app", "notsafe"),)))

# Sockets, kernel messages, logs, kernel parameters, mounts, network settings.
_add("lsof", _r("-a -b -C -h -K -l -n -N -O -P -R -t -U -v -V -w -X -x -E -M -Q",
                "-c -d -D -p -u -k -e -z -Z -i -F -g -o -r -s -S -T", operands="none",
                examples=(("lsof -i :8080", "readonly safe"), ("lsof -nP -iTCP -sTCP:LISTEN", "readonly safe"))))
_add("ss", _r("-h -V -n --numeric -r --resolve -a --all -l --listening -o --options -e --extended -m --memory "
              "-p --processes -T --threads -i --info --tipcinfo -s --summary --tos --cgroup -b --bpf -E --events "
              "-Z --context -z --contexts -4 --ipv4 -6 --ipv6 -0 --packet -t --tcp -M --mptcp -S --sctp -u --udp "
              "-d --dccp -w --raw -x --unix --tipc --vsock --xdp -H --no-header -O --oneline --inet-sockopt",
              "-f --family -A --query --socket -N --net", operands="none", read_flags=E("-F --filter"),
              write_flags=E("-D --diag"), mutate_flags=E("-K --kill"),
              examples=(("ss -tlnp", "readonly safe"), ("ss -K dst 1.2.3.4", "mutates notsafe"))))
_add("netstat", _r("-a --all -n --numeric -t --tcp -u --udp -l --listening -p --program -r --route -i --interfaces "
                   "-s --statistics -e --extend -o --timers -c --continuous -W --wide -x --unix -w --raw -g --groups "
                   "-M --masquerade -v --verbose -C -F -4 -6 --numeric-hosts --numeric-ports --numeric-users",
                   "-A --protocol", operands="none", examples=(("netstat -tulpn", "readonly safe"),)))
_add("dmesg", _r("-T --ctime -H --human -k --kernel -x --decode -L --color -w --follow -W --follow-new -e --reltime "
                 "-r --raw -t --notime -u --userspace -S --syslog -P --nopager -J --json -d --show-delta -p "
                 "--force-prefix", "-f --facility -l --level -s --buffer-size -n --console-level --since --until "
                 "--time-format", operands="none", read_flags=E("-F --file"),
                 mutate_flags=E("-c --read-clear -C --clear -D --console-off -E --console-on -n --console-level"),
                 examples=(("dmesg | tail", "readonly safe"), ("dmesg -T", "readonly safe"), ("dmesg -C", "mutates notsafe"))))
_add("journalctl", _r("-f --follow -r --reverse -x --catalog -q --quiet -a --all -e --pager-end -k --dmesg -m --merge "
                      "-N --fields --list-boots -l --full --no-full --no-pager --utc --no-hostname --system --user "
                      "--show-cursor --disk-usage --header --list-catalog --dump-catalog --case-sensitive --no-tail "
                      "--verify --list-namespaces --list-invocations --truncate-newline -h",
                      "-u --unit -n --lines -p --priority -t --identifier -T --exclude-identifier -o --output "
                      "-g --grep -S --since -U --until -D --directory --root --image -M --machine -b --boot "
                      "--user-unit -F --field --cursor --after-cursor --output-fields --facility --namespace -I "
                      "--invocation --interval", operands="none", read_flags=E("--file"),
                      write_flags=E("--cursor-file"),
                      mutate_flags=E("--vacuum-size --vacuum-time --vacuum-files --rotate --flush --sync "
                                     "--relinquish-var --smart-relinquish-var --setup-keys --update-catalog"),
                      examples=(("journalctl -u nginx -n 50 --no-pager", "readonly safe"),
                                ("journalctl -xe", "readonly safe"),
                                ("journalctl --vacuum-time=1d", "mutates notsafe"))))
_add("sysctl", _r("-a --all -A -X --deprecated -b --binary -e --ignore -N --names -n --values -q --quiet -o -x -d -h -V",
                  "-r --pattern", operands="none", mutate_flags=E("-w --write -p --load --system -f"),
                  handler="assign_operand_mutates", does="changes kernel parameters",
                  examples=(("sysctl -a", "readonly safe"), ("sysctl -n vm.swappiness", "readonly safe"),
                            ("sysctl -w net.ipv4.ip_forward=1", "mutates notsafe"), ("sysctl kernel.x=1", "mutates notsafe"))))
_add("mount", _r("-l --show-labels -v --verbose -h -V", "-t --types", operands="none", handler="operand_mutates",
                 does="mounts file systems",
                 examples=(("mount", "readonly safe"), ("mount -l -t ext4", "readonly safe"),
                           ("mount /dev/sdb1 /mnt", "mutates notsafe"))))
_IP_WHOLE = E("-s -stats -statistics -d -details -h -human -human-readable -r -resolve -4 -6 -0 -o -oneline -br "
              "-brief -t -timestamp -ts -tshort -j -json -p -pretty -a -all -N -numeric -V -Version -iec -c -color "
              "-n -netns -f -family -rc -rcvbuf")
_add("ip", _r(" ".join(sorted(_IP_WHOLE - E("-n -netns -f -family -rc -rcvbuf"))), "-n -netns -f -family -rc -rcvbuf",
              whole=_IP_WHOLE, operands="none", handler="ip",
              examples=(("ip addr show", "readonly safe"), ("ip route", "readonly safe"), ("ip -br a", "readonly safe"),
                        ("ip -j -p addr", "readonly safe"), ("ip -batch cmds.txt", "notsafe"),
                        ("ip link set eth0 down", "mutates notsafe"), ("ip netns exec x sh", "executes notsafe"))))
_add("ifconfig iwconfig route arp", _r("-a -s -v -n -e -F -C -ee --numeric --verbose --all", "-A -i -H -t",
                                       operands="none", handler="operand_mutates", does="changes network settings",
                                       examples=(("ifconfig", "readonly safe"), ("route -n", "readonly safe"),
                                                 ("ifconfig eth0 down", "mutates"))))
