"""File programs: create, copy, move, link, delete, change mode, split, patch, archive; ``find``; ``sed``
and ``awk``, whose scripts can run commands and write files."""
from __future__ import annotations

from phlegyas.analysis.programs.spec import PROJECT_EDIT, READ_ONLY, SAFE_WRITE, E, Spec, add, ro

# -- option sets -----------------------------------------------------------------------------------
HELP = E("--help --version")
"""Every GNU tool accepts these two."""


def _flags(text: str) -> frozenset[str]:
    """A flag set from a space-separated string, ``--help``/``--version`` included."""
    return E(text) | HELP


CHMOD_VALUES = E("--reference")
TOUCH_VALUES = E("-d --date -t -r --reference")
CP_VALUES = E("-t --target-directory -S --suffix --sparse --no-preserve")
CP_FLAGS = _flags("-a --archive --attributes-only --backup -b --copy-contents -d -f --force -i --interactive -H -l "
                  "--link -L --dereference -n --no-clobber -P --no-dereference -p --preserve --parents -R -r "
                  "--recursive --reflink --remove-destination --strip-trailing-slashes -s --symbolic-link -T "
                  "--no-target-directory -u --update -v --verbose -x --one-file-system -Z --context --debug "
                  "--keep-directory-symlink")
MV_FLAGS = _flags("--backup -b -f --force -i --interactive -n --no-clobber --strip-trailing-slashes -T "
                  "--no-target-directory -u --update -v --verbose -Z --context --debug --exchange --no-copy")
INSTALL_VALUES = E("-t --target-directory -m --mode -o --owner -g --group -S --suffix")
"""``-Z``/``--context`` take no value (a value would swallow the source: ``install -Z ~/.ssh/id_rsa k``)."""
SED_VALUES = E("-e --expression -f --file -l --line-length")
"""Only these take a value: ``-E``, ``-s``, ``-z`` are flags (as values they would swallow the script)."""
AWK_VALUES = E("-F --field-separator -v --assign -f --file -i --include -l --load -E --exec -W")
TAR_VALUES = E("-f --file -C --directory -T --files-from -X --exclude-from -b --blocking-factor -L --tape-length "
               "-N --newer --after-date -K --starting-file -V --label -g --listed-incremental -H --format --exclude "
               "--transform --xform --owner --group --mode --mtime --checkpoint-action --to-command "
               "--use-compress-program -I --info-script -F --new-volume-script --rsh-command --rmt-command "
               "--index-file --strip-components --suffix --newer-mtime --hole-detection --occurrence "
               "--quoting-style --sort --warning --record-size --level --exclude-tag --exclude-tag-under "
               "--exclude-tag-all --exclude-ignore --exclude-ignore-recursive --owner-map --group-map --pax-option "
               "--sparse-version --volno-file")
TAR_FLAGS = _flags("-A --catenate --concatenate -c --create -d --diff --compare --delete -r --append -t --list "
                   "--test-label -u --update -x --extract --get --check-device --no-check-device --ignore-failed-read "
                   "--ignore-command-error --no-ignore-command-error -k --keep-old-files --keep-newer-files "
                   "--keep-directory-symlink --no-overwrite-dir --overwrite --overwrite-dir --skip-old-files -U "
                   "--unlink-first -W --verify -O --to-stdout --delay-directory-restore --no-delay-directory-restore "
                   "--no-same-owner --no-same-permissions --numeric-owner -p --preserve-permissions --same-permissions "
                   "--same-owner -s --preserve-order --same-order -a --auto-compress -j --bzip2 -J --xz --lzip --lzma "
                   "--lzop --no-auto-compress -z --gzip --gunzip --ungzip -Z --compress --uncompress --zstd -h "
                   "--dereference --hard-dereference --anchored --no-anchored --ignore-case --no-ignore-case "
                   "--wildcards --no-wildcards --wildcards-match-slash --no-wildcards-match-slash --exclude-backups "
                   "--exclude-caches --exclude-caches-all --exclude-caches-under --exclude-vcs --exclude-vcs-ignores "
                   "-l --check-links --one-file-system --no-recursion --recursion --null --no-null --unquote "
                   "--no-unquote --verbatim-files-from --no-verbatim-files-from -v --verbose --totals "
                   "--show-defaults --show-omitted-dirs --show-transformed-names --show-stored-names --full-time --utc "
                   "-R --block-number --checkpoint --no-xattrs --xattrs --no-acls --acls --no-selinux --selinux -S "
                   "--sparse -G --incremental -n --seek --no-seek -i --ignore-zeros --read-full-records -B "
                   "--force-local --no-ignore-zeros --posix -o --old-archive --portability --usage -m --touch "
                   "--remove-files --backup --restrict --no-restrict --atime-preserve")
"""GNU tar's options without a value, except ``-P``/``--absolute-names`` (extraction outside the target
directory) and the interactive ``-w``: those stay not understood."""
UNPACK = _flags("-c --stdout --to-stdout -d --decompress --uncompress -f --force -k --keep -l --list -n --no-name "
                "-N --name -q --quiet -r --recursive -t --test -v --verbose --fast --best --rsyncable --synchronous "
                "-z --compress -e --extreme -Q --no-warn -s --small -L --license -V --rm --ultra --long -m "
                "--multiple --no-progress --progress --sparse --no-sparse -F --format -C --check -M --memlimit")

FILE_TOOLS: dict[str, Spec] = {}
"""File programs, find, sed and awk, in the order of the program table."""


def _add(names: str, spec: Spec) -> None:
    add(FILE_TOOLS, names, spec)


# Files: create, copy, move, link, delete, change mode.
_add("touch", Spec(category=PROJECT_EDIT, operands="write", value_opts=TOUCH_VALUES,
                   flags=_flags("-a -c --no-create -f -h --no-dereference -m --time"),
                   examples=(("touch src/__init__.py", "writes safe"), ("touch /etc/x", "notsafe"),
                             ("touch -c -m build/stamp", "writes safe"))))
_add("mkdir", Spec(category=PROJECT_EDIT, operands="write", value_opts=E("-m --mode"),
                   flags=_flags("-p --parents -v --verbose -Z --context"),
                   examples=(("mkdir -p build/out", "writes safe"), ("mkdir -p /tmp/work", "writes safe"),
                             ("mkdir -pv a/b", "writes safe"), ("mkdir ~/.ssh/x", "notsafe"))))
_add("mkfifo mknod", Spec(category=PROJECT_EDIT, operands="write", value_opts=E("-m --mode"),
                          flags=_flags("-Z --context"), examples=(("mkfifo /tmp/p", "writes"),)))
_add("mktemp", Spec(category=SAFE_WRITE, operands="none", handler="mktemp", value_opts=E("-p --suffix"),
                    flags=_flags("-d --directory -u --dry-run -q --quiet -t --tmpdir"),
                    examples=(("mktemp -d", "writes safe"), ("mktemp -d -t build.XXXX", "writes safe"),
                              ("mktemp -p ~/.ssh k.XXXX", "notsafe"))))
_add("tee", Spec(category=PROJECT_EDIT, operands="write", flags=_flags("-a --append -i --ignore-interrupts -p "
                                                                      "--output-error"),
                 examples=(("tee out.log", "writes safe"), ("tee -a ~/.bashrc", "writes notsafe"),
                           ("tee /dev/null", "safe"))))
_add("cp", Spec(category=PROJECT_EDIT, operands="target", value_opts=CP_VALUES, target_opts=E("-t --target-directory"),
                flags=CP_FLAGS,
                examples=(("cp a.txt b.txt", "writes safe"), ("cp -r src /tmp/src-copy", "writes safe"),
                          ("cp ~/.ssh/id_rsa /tmp/k", "notsafe"), ("cp a.txt /etc/a.txt", "notsafe"),
                          ("cp -t build/ a b", "writes safe"), ("cp -av src/. build/", "writes safe"))))
_add("mv", Spec(category=PROJECT_EDIT, operands="move", value_opts=E("-t --target-directory -S --suffix"),
                target_opts=E("-t --target-directory"), flags=MV_FLAGS,
                examples=(("mv a.txt b.txt", "writes safe"), ("mv -f a.txt b.txt", "writes safe"),
                          ("mv a.txt /usr/bin/a", "notsafe"))))
_add("ln link", Spec(operands="target", value_opts=CP_VALUES, target_opts=E("-t --target-directory"),
                     does="creates links",
                     examples=(("ln -s /etc/passwd p", "writes notsafe"),)))
_add("install", Spec(category=PROJECT_EDIT, operands="target", value_opts=INSTALL_VALUES,
                     target_opts=E("-t --target-directory"), exec_flags=E("--strip-program"),
                     flags=_flags("--backup -b -c -C --compare -d --directory -D -p --preserve-timestamps -s --strip "
                                  "-T --no-target-directory -v --verbose --preserve-context --debug -Z --context"),
                     examples=(("install -m 755 a build/a", "writes safe"), ("install a /usr/local/bin/a", "notsafe"),
                               ("install -D -m 644 a build/x/a", "writes safe"),
                               ("install -Z ~/.ssh/id_rsa build/k", "notsafe"))))
_add("truncate", Spec(category=PROJECT_EDIT, operands="write", value_opts=E("-s --size -r --reference"),
                      flags=_flags("-c --no-create -o --io-blocks"),
                      examples=(("truncate -s 0 build/log", "writes safe"), ("truncate -s 0 ~/.bashrc", "notsafe"))))
_add("fallocate", Spec(category=PROJECT_EDIT, operands="write", value_opts=E("-l --length -o --offset"),
                       flags=_flags("-c --collapse-range -d --dig-holes -i --insert-range -n --keep-size -p "
                                    "--punch-hole -z --zero-range -x --posix -v --verbose"),
                       examples=(("fallocate -l 1M build/blob", "writes safe"),)))
_add("chmod", Spec(category=PROJECT_EDIT, operands="mode", value_opts=CHMOD_VALUES,
                   recursive_flags=E("-R --recursive"),
                   flags=_flags("-c --changes -f --silent --quiet -v --verbose --preserve-root"),
                   examples=(("chmod +x scripts/run.sh", "writes safe"), ("chmod 777 /etc/passwd", "notsafe"),
                             ("chmod -R u+w build", "writes safe"), ("chmod -x ~/.bashrc", "notsafe"))))
_add("chown chgrp", Spec(operands="mode", value_opts=CHMOD_VALUES, does="changes file owners",
                         recursive_flags=E("-R --recursive"),
                         examples=(("chown -R me src", "writes mutates notsafe"),)))
_add("chattr setfacl chcon setfattr", Spec(operands="mode", does="changes file attributes",
                                           value_opts=E("-m -x -M -X -n -v"),
                                           examples=(("chattr +i a", "mutates notsafe"),)))
# ``--interactive[=WHEN]`` and ``--preserve-root[=all]`` take their value only after ``=``: flags, so that
# ``rm --interactive a`` never swallows ``a``. Generated directories (``rm -rf build``) are safe to delete
# (``analysis.generated``); project sources are not.
_add("rm", Spec(operands="delete", recursive_flags=E("-r -R --recursive"), category=SAFE_WRITE,
                flags=E("-f --force -i -I --interactive --one-file-system --preserve-root -r -R "
                        "--recursive -d --dir -v --verbose --help --version"),
                examples=(("rm a.txt", "deletes notsafe"), ("rm -rf build", "deletes safe"),
                          ("rm -rf src", "deletes notsafe"), ("rm --interactive=never -r dist", "deletes safe"),
                          ("rm -f /tmp/build.log /tmp/out.txt", "deletes safe"),
                          ("rm -r /tmp/cache", "deletes notsafe"), ("rm /tmp/*.log", "deletes notsafe"))))
_add("unlink", Spec(operands="delete", category=SAFE_WRITE, flags=E("--help --version"),
                    examples=(("unlink a.txt", "deletes notsafe"), ("unlink /tmp/x.log", "deletes safe"))))
_add("rmdir", Spec(operands="delete", examples=(("rmdir empty", "deletes notsafe"),)))
_add("shred wipe srm", Spec(operands="delete", value_opts=E("-n --iterations -s --size --random-source"),
                            does="destroys file contents",
                            examples=(("shred -u a.key", "deletes notsafe"),)))
_add("dd", Spec(operands="none", handler="dd", category=PROJECT_EDIT, flags=HELP,
                examples=(("dd if=a.img of=b.img bs=1M", "writes"), ("dd if=/dev/zero of=/dev/sda", "notsafe"),
                          ("dd if=a.bin bs=1 count=4", "readonly"))))
_add("split csplit", Spec(category=PROJECT_EDIT, operands="read", handler="split",
                          value_opts=E("-l --lines -b --bytes -C --line-bytes -n --number -a --suffix-length "
                                       "--additional-suffix -t --separator -f --prefix --suffix-format --digits"),
                          flags=_flags("-d --numeric-suffixes -x --hex-suffixes -e --elide-empty-files -u "
                                       "--unbuffered --verbose -k --keep-files -s -q --quiet --silent -z "
                                       "--suppress-matched"),
                          exec_flags=E("--filter"),
                          examples=(("split -l 100 big.txt part_", "writes"),
                                    ("split --filter='sh -c id' a", "executes notsafe"))))
_add("patch", Spec(category=PROJECT_EDIT, operands="write",
                   value_opts=E("-p --strip -Y --basename-prefix -z --suffix -V --version-control -D "
                                "--ifdef -F --fuzz -g --get --read-only --quoting-style --reject-format -x"),
                   read_flags=E("-i --input"), write_flags=E("-o --output -r --reject-file -d --directory -B --prefix"),
                   flags=_flags("-b --backup -c --context -e --ed -E --remove-empty-files -f --force -l "
                                "--ignore-whitespace -n --normal -N --forward -R --reverse -s --silent --quiet -t "
                                "--batch -T --set-time -u --unified --verbose --dry-run --posix -Z --set-utc "
                                "--backup-if-mismatch --no-backup-if-mismatch --binary --follow-symlinks --merge"),
                   default_operand=".", readonly_flags=E("--dry-run"),
                   examples=(("patch -p1 < fix.diff", "writes safe"), ("patch -p1 -i fix.diff", "writes safe"),
                             ("patch -d /etc -p1 < fix.diff", "writes notsafe"))))
_add("tar gtar bsdtar", Spec(operands="read", handler="tar", category=PROJECT_EDIT, value_opts=TAR_VALUES,
                             flags=TAR_FLAGS, write_flags=E("--index-file -g --listed-incremental --volno-file"),
                             examples=(("tar -tzf a.tgz", "readonly safe"), ("tar -xzf a.tgz -C build", "writes safe"),
                                       ("tar czf out.tgz src", "writes safe"),
                                       ("tar -czf out.tgz --exclude=node_modules src", "writes safe"),
                                       ("tar -xPf a.tar", "notsafe"),
                                       ("tar -czf b.tgz -g /home/u/.bashrc src", "notsafe"),
                                       ("tar -cf /dev/null x --checkpoint=1 --checkpoint-action=exec=sh",
                                        "executes notsafe"),
                                       ("tar xf a.tar --to-command='sh -c id'", "executes notsafe"),
                                       ("tar -xf a.tar -C /etc", "notsafe"))))
_add("zip", Spec(operands="read", handler="zip", category=PROJECT_EDIT, numeric=True,
                 value_opts=E("-b -n -t -tt -x -i -P --password -Z -s --split-size"),
                 write_flags=E("-O --output-file"),
                 flags=_flags("-r --recurse-paths -R -q --quiet -v --verbose -j --junk-paths -J -m --move -u --update "
                              "-f --freshen -d --delete -e --encrypt -y --symlinks -D --no-dir-entries -X -T --test "
                              "-l -ll -o -F -FF -A -k -L -h -g --grow -S -@ -c -z -0 -9 --latest-time"),
                 whole=E("-tt -sp -ll -FF -TT -sf -sc -so -su -ws"),
                 exec_flags=E("-TT --unzip-command"),
                 examples=(("zip -r out.zip src", "writes safe"), ("zip -qr out.zip src -x '*.pyc'", "writes safe"),
                           ("zip z.zip a -T -TT 'sh #'", "executes notsafe"))))
_add("unzip", Spec(operands="read", handler="unzip", category=PROJECT_EDIT, value_opts=E("-d -x -P -I -O"),
                   readonly_flags=E("-l -t -v -Z -p -c -z"),
                   flags=_flags("-o -n -q -qq -j -a -aa -b -B -C -D -DD -K -L -LL -M -N -s -U -UU -V -W -X -Y -u -f -T "
                                "-h"),
                   examples=(("unzip -l a.zip", "readonly safe"), ("unzip a.zip -d build", "writes safe"),
                             ("unzip -o -q a.zip -d build", "writes safe"), ("unzip -: a.zip", "notsafe"),
                             ("unzip a.zip -d /usr/lib", "notsafe"))))
_add("gzip gunzip bzip2 bunzip2 xz unxz lzma unlzma zstd unzstd lz4 unlz4 compress uncompress brotli pigz pixz lzip",
     Spec(category=PROJECT_EDIT, inplace=True, value_opts=E("-S --suffix -b -T --threads -p --processes"),
          write_flags=E("-o"), read_flags=E("-D"), numeric=True, flags=UNPACK,
          readonly_flags=E("-c --stdout --to-stdout -l --list -t --test"),
          examples=(("gzip -c a.txt", "readonly safe"), ("gzip a.log", "writes safe"), ("xz -l a.xz", "readonly"),
                    ("gzip -9 build/a.log", "writes safe"), ("gunzip -k logs/a.gz", "writes safe"))))
_add("7z 7za 7zr unrar rar", Spec(operands="read", handler="archive_generic", category=PROJECT_EDIT,
                                  value_opts=E("-o -p -t -m -x -i -w -v -a -b"), flags=_flags("-y -r"),
                                  whole=E("-slt -bd -ssc -ssc- -o+ -o- -inul -idq -so"),
                                  examples=(("7z l a.7z", "readonly"), ("7z x a.7z", "writes"),
                                            ("7z x a.7z -obuild -y", "writes"))))
# cpio -i keeps absolute and ``..`` member names unless told not to, so its extraction stays not understood.
_add("cpio", Spec(operands="read", handler="archive_generic", category=PROJECT_EDIT,
                  value_opts=E("-F --file -O -I -H --format -E --pattern-file -D --directory -M --message -R --owner "
                               "-C --io-size"),
                  flags=_flags("-o --create -p --pass-through -d --make-directories -m "
                               "--preserve-modification-time -u --unconditional -v --verbose -t --list -B -c -V --dot "
                               "-0 --null -a --reset-access-time -b --swap -f --nonmatching -l --link -L --dereference "
                               "-n --numeric-uid-gid -r --rename -s --swap-bytes -S --swap-halfwords "
                               "--no-absolute-filenames --quiet --sparse"),
                  exec_flags=E("--rsh-command"),
                  examples=(("cpio -t < a.cpio", "readonly"), ("cpio -idv < a.cpio", "notsafe"),
                            ("cpio -o --rsh-command /bin/sh -F h:", "executes notsafe"))))
_add("ar", Spec(operands="read", handler="archive_generic", category=PROJECT_EDIT, value_opts=E("--target"),
                write_flags=E("--output"),
                flags=_flags("-r -c -s -t -x -p -d -q -m -u -v -D -U -T"), load_flags=E("--plugin"),
                examples=(("ar t lib.a", "readonly"), ("ar --plugin /tmp/x.so t lib.a", "notsafe"))))

# find: an expression language of its own.
_add("find gfind bfs", Spec(readonly=True, category=READ_ONLY, handler="find",
                            # the options before the paths (the rest is find's expression, its handler's)
                            flags=_flags("-H -L -P -O0 -O1 -O2 -O3 -E -X -s -x -d"), value_opts=E("-D"),
                            examples=(("find . -name '*.py'", "readonly safe"),
                                      ("find -L src -name '*.py'", "readonly safe"),
                                      ("find -D exec . -name '*.py'", "readonly safe"),
                                      ("find . -name '*.log' -delete", "deletes notsafe"),
                                      ("find . -name '*.pyc' -delete", "deletes safe"),
                                      ("find . -exec rm {} \\;", "deletes notsafe"),
                                      ("find . -type f -exec grep -l foo {} +", "readonly safe"),
                                      ("find src -maxdepth 2 -type f -newer setup.py -print0", "readonly safe"),
                                      ("find . -iname '*.md' -not -path './node_modules/*'", "readonly safe"),
                                      ("find / -fprint /tmp/x", "writes"),
                                      ("find -files0-from ~/.ssh/id_rsa", "notsafe reads"),
                                      ("find . -frobnicate", "notsafe"),
                                      ("find . -okdir ./fix.sh {} \\;", "executes notsafe"),
                                      ("find . -exec sh -c 'cat {}' \\;", "executes notsafe"))))
_add("locate mlocate plocate", ro(operands="none", handler="name_hunt", value_opts=E("-d --database -l --limit -n --regexp"),
                                  flags=_flags("-A --all -b --basename -c --count -e --existing -L --follow -i "
                                               "--ignore-case -P -H --nofollow -0 --null -S --statistics -q --quiet "
                                               "-w --wholename -r --regex -N --literal -V -h"),
                                  examples=(("locate -i readme", "readonly safe"), ("locate id_rsa", "notsafe"),
                                            ("locate '*.pem'", "notsafe"))))
_add("fd fdfind", ro(operands="none", handler="name_hunt",
                     value_opts=E("-d --max-depth --min-depth --exact-depth -t --type -e --extension -E --exclude "
                                  "-S --size --changed-within --changed-before --change-newer-than --change-older-than "
                                  "--newer --older -o --owner -j --threads --max-results --base-directory "
                                  "--path-separator --search-path -c --color --max-buffer-time --format --batch-size "
                                  "--and"),
                     flags=_flags("-H --hidden -I --no-ignore -u --unrestricted -s --case-sensitive -i --ignore-case "
                                  "-g --glob --regex -F --fixed-strings -a --absolute-path -l --list-details -L "
                                  "--follow -p --full-path -0 --print0 --prune -1 --show-errors --one-file-system "
                                  "--no-ignore-vcs --no-ignore-parent --no-require-git --strip-cwd-prefix -q --quiet "
                                  "--no-global-ignore-file --hyperlink -h -V"),
                     read_flags=E("--ignore-file"), exec_flags=E("-x --exec -X --exec-batch"),
                     examples=(("fd -e py", "readonly safe"), ("fd -H -t f config", "readonly safe"),
                               ("fd -x rm", "executes notsafe"), ("fd -H id_rsa ~", "notsafe"),
                               ("fd -e pem . /", "notsafe"), ("fd -e py . src", "readonly safe"))))

# sed and awk: their scripts can run commands and write files.
_add("sed gsed", Spec(readonly=True, category=READ_ONLY, operands="pattern", value_opts=SED_VALUES,
                      flags=_flags("-n --quiet --silent --debug --follow-symlinks -i --in-place --posix -E -r "
                                   "--regexp-extended -s --separate --sandbox -u --unbuffered -z --null-data"),
                      pattern_opts=E("-e --expression -f --file"), inplace_flags=E("-i --in-place"),
                      handler="sed",
                      examples=(("sed -n '1,5p' a.txt", "readonly safe"), ("sed -i 's/a/b/' src/x.py", "writes"),
                                ("sed -E 's/a+/b/' a.txt", "readonly safe"), ("sed -i.bak 's/a/b/' x.py", "writes"),
                                ("sed -n '1r ~/.ssh/id_rsa' a.txt", "notsafe"),
                                ("sed 's/x/id/e' a", "executes notsafe"), ("sed 'w /tmp/out' a", "writes"),
                                ("sed '1e rm -rf x' a", "deletes notsafe"), ("sed '1e id' a", "readonly safe"))))
_add("awk gawk mawk nawk", Spec(readonly=True, category=READ_ONLY, operands="pattern", value_opts=AWK_VALUES,
                                flags=_flags("-b --characters-as-bytes -c --traditional -C --copyright -g --gen-pot -h "
                                             "-L --lint -M --bignum -n --non-decimal-data -N --use-lc-numeric -O "
                                             "--optimize -P --posix -r --re-interval -s --no-optimize -S --sandbox "
                                             "-t --lint-old -V"),
                                pattern_opts=E("-f --file -E --exec"), inplace_flags=E("-i"),
                                handler="awk",
                                examples=(("awk '{print $1}' a.txt", "readonly safe"),
                                          ("awk -F: '{print $1}' /etc/passwd", "readonly"),
                                          ("awk -v n=3 'NR<=n' a.txt", "readonly safe"),
                                          ("awk 'BEGIN{system(\"rm -rf x\")}'", "deletes notsafe"),
                                          ("awk '{system($0)}' a", "executes notsafe"),
                                          ("awk '{print > \"/tmp/o\"}' a", "writes"),
                                          ("awk 'BEGIN{while((getline l < \"/home/u/.netrc\")>0) print l}'", "notsafe"),
                                          ("awk -o x.out '{print}' a", "notsafe"),
                                          ("awk -W version", "readonly safe"),
                                          ("mawk -W exec prog.awk a", "notsafe"),
                                          ("awk '{print | \"sh\"}' a", "executes notsafe"))))


# Line counters: they read every file under their operands (a directory is read recursively, so ``cloc ~``
# takes the home directory's secrets along as ``grep -r`` would); their reports go to stdout unless a file
# option names one.
_add("cloc", ro(flags=_flags("--quiet --by-file --by-file-by-lang --by-lang --csv --json --yaml --md --xml --sql-append "
                            "--hide-rate --vcs=git --git --follow-links --no-autogen --skip-uniqueness -v --verbose "
                            "--show-lang --show-ext --diff --sum-reports --include-content"),
               value_opts=E("--exclude-dir --exclude-ext --include-ext --include-lang --exclude-lang --match-f "
                            "--not-match-f --match-d --not-match-d --max-file-size --timeout"),
               write_flags=E("--report-file --out"), read_flags=E("--list-file --exclude-list-file --read-lang-def "
                                                                 "--force-lang-def"),
               examples=(("cloc src/ --quiet", "readonly safe"), ("cloc --by-file --exclude-dir=node_modules .",
                                                                  "readonly safe"),
                         ("cloc ~", "notsafe"), ("cloc --report-file=/etc/x src", "notsafe"))))
_add("tokei", ro(flags=_flags("-f --files -C --compact --hidden --no-ignore --no-ignore-parent --no-ignore-dot "
                             "--no-ignore-vcs -l --languages -V --verbose -n --num-format"),
                value_opts=E("-s --sort -t --type -e --exclude -o --output -c --columns -i --input"),
                examples=(("tokei src", "readonly safe"), ("tokei -f -s code .", "readonly safe"),
                          ("tokei ~", "notsafe"))))
_add("scc", ro(flags=_flags("--by-file -w --wide --no-cocomo --no-complexity --no-duplicates --no-gitignore "
                           "--no-ignore --hidden --ci --debug -v --verbose --uloc --dryness"),
              value_opts=E("-f --format -s --sort -i --include-ext -x --exclude-ext --exclude-dir -M --not-match "
                           "--count-as --format-multi --remap-all --remap-unknown"),
              write_flags=E("-o --output"),
              examples=(("scc src", "readonly safe"), ("scc --by-file -s complexity .", "readonly safe"),
                        ("scc -o ~/.bashrc src", "notsafe"))))


EQUIVALENTS: dict[str, tuple[str, ...]] = {
    "rimraf": ("rm", "-rf"),  # npm's rimraf deletes every operand recursively, as rm -rf does
    "del-cli": ("rm", "-rf"),  # npm's del-cli: globs and directories, recursively
    "rmrf": ("rm", "-rf"),
}
"""Programs that do exactly what a command of the table does: analysed as that command
(``rimraf ~`` is ``rm -rf ~``; examples in ``tests/cases/carriers.tsv``)."""
