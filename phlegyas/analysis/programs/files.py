"""File programs: create, copy, move, link, delete, change mode, split, patch, archive; ``find``; ``sed``
and ``awk``, whose scripts can run commands and write files."""
from __future__ import annotations

from phlegyas.analysis.programs.spec import PROJECT_EDIT, READ_ONLY, SAFE_WRITE, E, Spec, add, ro

# -- option sets -----------------------------------------------------------------------------------
CHMOD_VALUES = E("--reference")
TOUCH_VALUES = E("-d --date -t -r --reference")
CP_VALUES = E("-t --target-directory -S --suffix --backup --sparse --reflink --preserve --no-preserve")
INSTALL_VALUES = E("-t --target-directory -m --mode -o --owner -g --group -S --suffix --strip-program "
                   "-Z --context")
SED_VALUES = E("-e --expression -f --file -l --line-length -s --separate -E -r --regexp-extended -z "
               "--null-data --posix")
AWK_VALUES = E("-F --field-separator -v --assign -f --file -i --include -l --load -E --exec -W")

FILE_TOOLS: dict[str, Spec] = {}
"""File programs, find, sed and awk, in the order of the program table."""


def _add(names: str, spec: Spec) -> None:
    add(FILE_TOOLS, names, spec)


# Files: create, copy, move, link, delete, change mode.
_add("touch", Spec(category=PROJECT_EDIT, operands="write", value_opts=TOUCH_VALUES,
                   examples=(("touch src/__init__.py", "writes safe"), ("touch /etc/x", "notsafe"))))
_add("mkdir", Spec(category=PROJECT_EDIT, operands="write", value_opts=E("-m --mode -Z --context"),
                   examples=(("mkdir -p build/out", "writes safe"), ("mkdir -p /tmp/work", "writes safe"),
                             ("mkdir ~/.ssh/x", "notsafe"))))
_add("mkfifo mknod", Spec(category=PROJECT_EDIT, operands="write", value_opts=E("-m --mode -Z"),
                          examples=(("mkfifo /tmp/p", "writes"),)))
_add("mktemp", Spec(category=SAFE_WRITE, operands="none", handler="mktemp", value_opts=E("-p --tmpdir --suffix"),
                    examples=(("mktemp -d", "writes safe"),)))
_add("tee", Spec(category=PROJECT_EDIT, operands="write",
                 examples=(("tee out.log", "writes safe"), ("tee -a ~/.bashrc", "writes notsafe"),
                           ("tee /dev/null", "safe"))))
_add("cp", Spec(category=PROJECT_EDIT, operands="target", value_opts=CP_VALUES, target_opts=E("-t --target-directory"),
                examples=(("cp a.txt b.txt", "writes safe"), ("cp -r src /tmp/src-copy", "writes safe"),
                          ("cp ~/.ssh/id_rsa /tmp/k", "notsafe"), ("cp a.txt /etc/a.txt", "notsafe"),
                          ("cp -t build/ a b", "writes safe"))))
_add("mv", Spec(category=PROJECT_EDIT, operands="move", value_opts=CP_VALUES, target_opts=E("-t --target-directory"),
                examples=(("mv a.txt b.txt", "writes safe"), ("mv a.txt /usr/bin/a", "notsafe"))))
_add("ln link", Spec(operands="target", value_opts=CP_VALUES, target_opts=E("-t --target-directory"),
                     does="creates links",
                     examples=(("ln -s /etc/passwd p", "writes notsafe"),)))
_add("install", Spec(category=PROJECT_EDIT, operands="target", value_opts=INSTALL_VALUES,
                     target_opts=E("-t --target-directory"),
                     examples=(("install -m 755 a build/a", "writes safe"), ("install a /usr/local/bin/a", "notsafe"))))
_add("truncate fallocate", Spec(category=PROJECT_EDIT, operands="write",
                                value_opts=E("-s --size -r --reference -l --length -o --offset"),
                                examples=(("truncate -s 0 build/log", "writes safe"),)))
_add("chmod", Spec(category=PROJECT_EDIT, operands="mode", value_opts=CHMOD_VALUES,
                   recursive_flags=E("-R --recursive"),
                   examples=(("chmod +x scripts/run.sh", "writes safe"), ("chmod 777 /etc/passwd", "notsafe"))))
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
                flags=E("-f --force -i -I --interactive --one-file-system --no-preserve-root --preserve-root -r -R "
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
_add("dd", Spec(operands="none", handler="dd", category=PROJECT_EDIT,
                examples=(("dd if=a.img of=b.img bs=1M", "writes"), ("dd if=/dev/zero of=/dev/sda", "notsafe"),
                          ("dd if=a.bin bs=1 count=4", "readonly"))))
_add("split csplit", Spec(category=PROJECT_EDIT, operands="read", handler="split",
                          value_opts=E("-l --lines -b --bytes -C --line-bytes -n --number -a --suffix-length "
                                       "--additional-suffix -t --separator -f --prefix -b --suffix-format"),
                          exec_flags=E("--filter"),
                          examples=(("split -l 100 big.txt part_", "writes"),
                                    ("split --filter='sh -c id' a", "executes notsafe"))))
_add("patch", Spec(category=PROJECT_EDIT, operands="write", value_opts=E("-p --strip -i --input -o --output -d "
                                                                         "--directory -r --reject-file -B -z -D -F"),
                   default_operand=".", readonly_flags=E("--dry-run"),
                   examples=(("patch -p1 < fix.diff", "writes safe"),)))
_add("tar gtar bsdtar", Spec(operands="read", handler="tar", category=PROJECT_EDIT,
                             examples=(("tar -tzf a.tgz", "readonly safe"), ("tar -xzf a.tgz -C build", "writes safe"),
                                       ("tar czf out.tgz src", "writes safe"),
                                       ("tar -cf /dev/null x --checkpoint=1 --checkpoint-action=exec=sh",
                                        "executes notsafe"),
                                       ("tar xf a.tar --to-command='sh -c id'", "executes notsafe"),
                                       ("tar -xf a.tar -C /etc", "notsafe"))))
_add("zip", Spec(operands="read", handler="zip", category=PROJECT_EDIT,
                 value_opts=E("-b -n -t -tt -x -i -P --password -O --output-file -Z -s -sp"),
                 exec_flags=E("-TT --unzip-command"),
                 examples=(("zip -r out.zip src", "writes safe"), ("zip z.zip a -T -TT 'sh #'", "executes notsafe"))))
_add("unzip", Spec(operands="read", handler="unzip", category=PROJECT_EDIT, value_opts=E("-d -x -P -I -O"),
                   readonly_flags=E("-l -t -v -Z -p -c -z"),
                   examples=(("unzip -l a.zip", "readonly safe"), ("unzip a.zip -d build", "writes safe"),
                             ("unzip a.zip -d /usr/lib", "notsafe"))))
_add("gzip gunzip bzip2 bunzip2 xz unxz lzma unlzma zstd unzstd lz4 unlz4 compress uncompress brotli pigz pixz lzip",
     Spec(category=PROJECT_EDIT, inplace=True, value_opts=E("-S --suffix -b -T --threads -o"),
          write_flags=E("-o"),
          readonly_flags=E("-c --stdout --to-stdout -l --list -t --test"),
          examples=(("gzip -c a.txt", "readonly safe"), ("gzip a.log", "writes safe"), ("xz -l a.xz", "readonly"))))
_add("7z 7za 7zr unrar rar cpio ar", Spec(operands="read", handler="archive_generic", category=PROJECT_EDIT,
                                          exec_flags=E("--rsh-command"),
                                          examples=(("7z l a.7z", "readonly"), ("7z x a.7z", "writes"),
                                                    ("cpio -o --rsh-command /bin/sh -F h:", "executes notsafe"))))

# find: an expression language of its own.
_add("find gfind bfs", Spec(readonly=True, category=READ_ONLY, handler="find",
                            examples=(("find . -name '*.py'", "readonly safe"),
                                      ("find . -name '*.log' -delete", "deletes notsafe"),
                                      ("find . -name '*.pyc' -delete", "deletes safe"),
                                      ("find . -exec rm {} \\;", "deletes notsafe"),
                                      ("find . -type f -exec grep -l foo {} +", "readonly safe"),
                                      ("find / -fprint /tmp/x", "writes"),
                                      ("find . -okdir ./fix.sh {} \\;", "executes notsafe"),
                                      ("find . -exec sh -c 'cat {}' \\;", "executes notsafe"))))
_add("locate mlocate plocate fd fdfind", ro(operands="none", value_opts=E("-d --database -l --limit -e -t --type "
                                                                          "-E --exclude -d --max-depth -x --exec "
                                                                          "-X --exec-batch"),
                                            exec_flags=E("-x --exec -X --exec-batch"),
                                            examples=(("fd -e py", "readonly safe"), ("fd -x rm", "executes notsafe"))))

# sed and awk: their scripts can run commands and write files.
_add("sed gsed", Spec(readonly=True, category=READ_ONLY, operands="pattern", value_opts=SED_VALUES,
                      pattern_opts=E("-e --expression -f --file"), inplace_flags=E("-i --in-place"),
                      handler="sed",
                      examples=(("sed -n '1,5p' a.txt", "readonly safe"), ("sed -i 's/a/b/' src/x.py", "writes"),
                                ("sed 's/x/id/e' a", "executes notsafe"), ("sed 'w /tmp/out' a", "writes"),
                                ("sed '1e rm -rf x' a", "deletes notsafe"), ("sed '1e id' a", "readonly safe"))))
_add("awk gawk mawk nawk", Spec(readonly=True, category=READ_ONLY, operands="pattern", value_opts=AWK_VALUES,
                                            pattern_opts=E("-f --file -E --exec"), inplace_flags=E("-i"),
                                            handler="awk",
                                            examples=(("awk '{print $1}' a.txt", "readonly safe"),
                                                      ("awk 'BEGIN{system(\"rm -rf x\")}'", "deletes notsafe"),
                                                      ("awk '{system($0)}' a", "executes notsafe"),
                                                      ("awk '{print > \"/tmp/o\"}' a", "writes"),
                                                      ("awk '{print | \"sh\"}' a", "executes notsafe"))))
