"""Plain readers: programs that print files or facts about files, text, processes and the system.

A few of them change state with some options or operands (``sort -o``, ``hostname NAME``, ``sysctl -w``,
``ip link set``); their entries say which.
"""
from __future__ import annotations

from phlegyas.analysis.programs.spec import READ_ONLY, E, Spec, add, ro

# -- option sets -----------------------------------------------------------------------------------
GREP_VALUES = E("-e --regexp -f --file -m --max-count -A --after-context -B --before-context -C --context "
                "--include --exclude --exclude-dir --exclude-from --label --color --colour -d --directories "
                "-D --devices --binary-files --group-separator")
RG_VALUES = E("-e --regexp -f --file -g --glob --iglob -t --type -T --type-not -m --max-count -A -B -C "
              "--after-context --before-context --context -j --threads -M --max-columns --max-depth -d "
              "--color --colors --sort --sortr -E --encoding --type-add --ignore-file --max-filesize "
              "-r --replace --path-separator --context-separator --field-match-separator")
HEAD_VALUES = E("-n --lines -c --bytes")
TAIL_VALUES = E("-n --lines -c --bytes --pid -s --sleep-interval --max-unchanged-stats")
LS_VALUES = E("-w --width -T --tabsize -I --ignore --hide --color --format --sort --time --time-style "
              "--block-size --indicator-style --quoting-style")
SORT_VALUES = E("-o --output -k --key -t --field-separator -S --buffer-size -T --temporary-directory "
                "--parallel --batch-size --compress-program --random-source --files0-from")
CUT_VALUES = E("-b --bytes -c --characters -d --delimiter -f --fields --output-delimiter")
JQ_VALUES = E("--arg --argjson --slurpfile --rawfile --args --jsonargs -L --indent --tab -f --from-file")
PS_VALUES = E("-p --pid -u --user -U -g -G --group -o --format -O -C --sort -t --tty -q --ppid")
DIFF_VALUES = E("-C --context -U --unified -W --width -x --exclude -X --exclude-from -I --ignore-matching-lines "
                "--label -L --from-file --to-file --color --palette --tabsize -F --show-function-line "
                "--horizon-lines --line-format --old-line-format --new-line-format --unchanged-line-format "
                "--old-group-format --new-group-format --unchanged-group-format --changed-group-format -D --ifdef")

READERS: dict[str, Spec] = {}
"""Plain readers, in the order of the program table."""


def _add(names: str, spec: Spec) -> None:
    add(READERS, names, spec)


# Plain readers: print files or facts, change nothing.
_add("cat tac nl od hexdump strings rev fold fmt pr expand unexpand column colrm look "
     "md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum sum base32 base64 basenc "
     "zcat bzcat xzcat zstdcat lz4cat zmore bat batcat more most",
     ro(value_opts=E("-n -s -t -v -w -N -j -A -t --width --tabs -c -C --separator --table-columns -o -l -b -f "
                     "--style --theme --language -l --line-range -r --highlight-line --wrap --color "
                     "--decorations --paging --pager -H --tabs --terminal-width --map-syntax"),
        exec_flags=E("--pager"),
        examples=(("cat README.md", "readonly safe reads"), ("cat ~/.ssh/id_rsa", "notsafe reads"),
                  ("base64 -d blob.txt", "readonly safe"), ("sha256sum dist/*.whl", "readonly safe"),
                  ("bat --pager 'sh -c id' f", "executes notsafe"))))
_add("head", ro(value_opts=HEAD_VALUES, examples=(("head -n 20 src/app.py", "readonly safe reads"),
                                                  ("head -5 /etc/shadow", "notsafe"))))
_add("tail", ro(value_opts=TAIL_VALUES, examples=(("tail -f logs/app.log", "readonly safe"),
                                                  ("tail -n +3 a.csv", "readonly safe"))))
_add("less", ro(value_opts=E("-b --buffers -h --max-back-scroll -j --jump-target -k --lesskey-file -p --pattern "
                             "-P --prompt -t --tag -T --tag-file -x --tabs -y --max-forw-scroll -z --window "
                             "-# --shift"),
                write_flags=E("-o -O --log-file --LOG-FILE"), handler="plus_command",
                examples=(("less README.md", "readonly safe"), ("less -o /tmp/log f", "writes"),
                          ("less '+!id' f", "executes notsafe"))))
_add("wc", ro(value_opts=E("--files0-from"), examples=(("wc -l src/*.py", "readonly safe"),)))
_add("file stat realpath readlink namei lsattr getfacl",
     ro(operands="list", value_opts=E("-m --magic-file -f --files-from -F --separator -P --parameter -c --format "
                                      "--printf --relative-to --relative-base"),
        examples=(("file build/app", "readonly safe"), ("stat -c %s a.txt", "readonly safe"),
                  ("realpath --relative-to=. src", "readonly safe"))))
_add("ls dir vdir tree exa eza lsd",
     ro(operands="list", value_opts=LS_VALUES | E("-L --level -P -I --filelimit -o --output --charset --sort --ignore-glob "
                                 "--time-style --colour --color -X --timefile"),
        write_flags=E("-o"),
        examples=(("ls -la", "readonly safe"), ("ls ~/.ssh", "readonly safe"), ("tree -L 2 src", "readonly safe"))))
_add("du", ro(operands="list", value_opts=E("-d --max-depth -B --block-size -t --threshold --exclude -X --exclude-from "
                           "--time-style --files0-from"),
              examples=(("du -sh node_modules", "readonly safe"),)))
_add("df findmnt lsblk blkid free vmstat iostat mpstat uptime nproc lscpu lsusb lspci lsmod lsns lsipc "
     "arch getconf locale tty users who w last lastlog groups id whoami logname printenv hostid "
     "uname pwd dirs jobs times true false : pidof pgrep pstree sensors "
     "ulimit umask getent sw_vers",
     ro(operands="none",
        value_opts=E("-t --type -x --exclude-type -B --block-size --output -o -s --delay -n -u -U -g -G -P "
                     "-f --parent -s --session -t --terminal -c -P --ns --task -d -O"),
        examples=(("df -h", "readonly safe"), ("uname -a", "readonly safe"), ("id -u", "readonly safe"),
                  ("pgrep -fl python", "readonly safe"), ("whoami", "readonly safe"))))
_add("pidstat", ro(operands="none", value_opts=E("-p -u -r -d -w -e -C -G -T -l"), exec_flags=E("-e"),
                   examples=(("pidstat 1 3", "readonly safe"), ("pidstat -e /bin/sh", "executes notsafe"))))
_add("ps top htop btop atop", ro(operands="none", value_opts=PS_VALUES | E("-n -d -b -p -H -c -s -w -u"),
                                 examples=(("ps aux", "readonly safe"), ("top -b -n 1", "readonly safe"))))
_add("echo printf sleep seq yes expr factor numfmt test [ shift getopts read wait help type hash "
     "basename dirname cal tput clear reset tsort uuidgen mcookie",
     ro(operands="none", value_opts=E("-v -a -d -n -p -t -u -s -f -w --format --separator --suffix --to --from"),
        examples=(("echo hello", "readonly safe"), ("printf '%s\\n' a b", "readonly safe"),
                  ("sleep 2", "readonly safe"), ("basename /a/b.txt .txt", "readonly safe"),
                  ("test -f setup.py", "readonly safe"), ("read -r line", "readonly safe"))))
_add("date", ro(operands="none", value_opts=E("-d --date -f --file -r --reference -I --iso-8601 -R --rfc-email "
                                              "--rfc-3339 -u --utc"),
                mutate_flags=E("-s --set"),
                examples=(("date +%s", "readonly safe"), ("date -s '2020-01-01'", "mutates notsafe"))))
_add("hostname", ro(operands="none", handler="operand_mutates", does="sets the host name",
                    examples=(("hostname -I", "readonly safe"), ("hostname evil", "mutates notsafe"))))
_add("which whereis apropos whatis info tldr", ro(operands="none", value_opts=E("-s -m -M -B -f"),
                                                            examples=(("which python3", "readonly safe"),)))
_add("man", ro(operands="none", value_opts=E("-M --manpath -S -s --sections -L --locale -m --systems -E --encoding "
                                             "-C --config-file -R --recode"),
               exec_flags=E("-P --pager -H --html -X --gxditview -B"),
               examples=(("man tar", "readonly safe"), ("man -P 'sh -c id' ls", "executes notsafe"))))
_add("grep egrep fgrep zgrep rgrep", ro(operands="pattern", value_opts=GREP_VALUES, pattern_opts=E("-e --regexp -f --file"),
                                  examples=(("grep -rn TODO src", "readonly safe reads"),
                                            ("grep -r password ~/.aws", "notsafe"),
                                            ("grep -e foo -e bar a.txt", "readonly safe"))))
_add("rg ripgrep", ro(operands="pattern", value_opts=RG_VALUES, pattern_opts=E("-e --regexp -f --file"),
                      exec_flags=E("--pre"),
                      examples=(("rg -n 'fn main' src", "readonly safe"), ("rg --pre ./x.sh foo", "executes notsafe"))))
_add("ag ack", ro(operands="pattern", value_opts=E("-G --file-search-regex -A -B -C --ignore --ignore-dir -m --depth"),
                  examples=(("ag TODO", "readonly safe"),)))
_add("cut", ro(value_opts=CUT_VALUES, examples=(("cut -d, -f1 a.csv", "readonly safe"),)))
_add("paste join comm", ro(value_opts=E("-d --delimiters -t -1 -2 -j -o -a -v -e --output-delimiter"),
                           examples=(("comm -12 a b", "readonly safe"),)))
_add("tr", ro(operands="none", examples=(("tr a-z A-Z", "readonly safe"),)))
_add("sort", ro(value_opts=SORT_VALUES, write_flags=E("-o --output"), exec_flags=E("--compress-program"),
                examples=(("sort -u names.txt", "readonly safe"), ("sort -o out.txt in.txt", "writes"),
                          ("sort --compress-program=sh x", "executes notsafe"))))
_add("uniq", ro(operands="in_out", value_opts=E("-f --skip-fields -s --skip-chars -w --check-chars --group "
                                                "--all-repeated"),
                examples=(("uniq -c a.txt", "readonly safe"), ("uniq a.txt b.txt", "writes"))))
_add("shuf", ro(value_opts=E("-n --head-count -i --input-range --random-source -e"), write_flags=E("-o --output"),
                examples=(("shuf -n 3 a.txt", "readonly safe"),)))
_add("diff diff3 cmp sdiff colordiff icdiff delta difft",
     ro(value_opts=DIFF_VALUES | E("-i -n --bytes --ignore-initial -w --width"),
        write_flags=E("-o --output"), exec_flags=E("--diff-program"),
        examples=(("diff -u a.py b.py", "readonly safe"), ("sdiff -o merged a b", "writes"))))
_add("jq gojq jaq", ro(operands="pattern", value_opts=JQ_VALUES, pattern_opts=E("-f --from-file"),
                       examples=(("jq .name package.json", "readonly safe"), ("jq -r '.[]' < a.json", "readonly safe"))))
_add("yq", ro(operands="pattern", value_opts=E("-o --output-format -p --input-format --arg -I --indent"),
              inplace_flags=E("-i --inplace"),
              examples=(("yq '.a' x.yaml", "readonly safe"), ("yq -i '.a=1' x.yaml", "writes"))))
_add("xmllint", ro(value_opts=E("--xpath --path --schema --relaxng --dtdvalid --encode"),
                   write_flags=E("--output -o"), examples=(("xmllint --format a.xml", "readonly safe"),)))
_add("xxd", ro(operands="in_out", value_opts=E("-c -cols -g -groupsize -l -len -o -offset -s -seek -n -name"),
               examples=(("xxd a.bin", "readonly safe"), ("xxd -r dump a.bin", "writes"))))
_add("iconv", ro(value_opts=E("-f --from-code -t --to-code"), write_flags=E("-o --output"),
                 examples=(("iconv -f latin1 -t utf-8 a.txt", "readonly safe"),)))
_add("envsubst", ro(operands="none", examples=(("envsubst < tpl.txt", "readonly safe"),)))
_add("nm objdump readelf size c++filt addr2line",
     ro(value_opts=E("-j --section -e --exe -t --radix --target -M --disassembler-options"),
        examples=(("readelf -h build/app", "readonly safe"), ("objdump -d a.o", "readonly safe"))))
_add("ldd", Spec(does="may run the program it inspects", examples=(("ldd ./app", "notsafe"),)))
_add("lsof ss netstat", ro(operands="none", value_opts=E("-p -i -u -c -d -g -F -s -t -A -o -r"),
                           examples=(("lsof -i :8080", "readonly safe"), ("ss -tlnp", "readonly safe"))))
_add("dmesg", ro(operands="none", value_opts=E("-f --facility -l --level -s --buffer-size -n --console-level"),
                 mutate_flags=E("-c --read-clear -C --clear -D --console-off -E --console-on -n --console-level"),
                 examples=(("dmesg | tail", "readonly safe"), ("dmesg -C", "mutates notsafe"))))
_add("journalctl", ro(operands="none",
                      value_opts=E("-u --unit -n --lines -p --priority -t --identifier -o --output -g --grep "
                                   "-S --since -U --until -D --directory --file -M --machine -b --boot "
                                   "--user-unit -F --field --cursor --after-cursor --output-fields"),
                      mutate_flags=E("--vacuum-size --vacuum-time --vacuum-files --rotate --flush --sync "
                                     "--relinquish-var --smart-relinquish-var --setup-keys --update-catalog"),
                      examples=(("journalctl -u nginx -n 50 --no-pager", "readonly safe"),
                                ("journalctl --vacuum-time=1d", "mutates notsafe"))))
_add("sysctl", ro(operands="none", mutate_flags=E("-w --write -p --load --system"), handler="assign_operand_mutates",
                  does="changes kernel parameters",
                  examples=(("sysctl -a", "readonly safe"), ("sysctl -w net.ipv4.ip_forward=1", "mutates notsafe"),
                            ("sysctl kernel.x=1", "mutates notsafe"))))
_add("mount", ro(operands="none", handler="operand_mutates", does="mounts file systems",
                 examples=(("mount", "readonly safe"), ("mount /dev/sdb1 /mnt", "mutates notsafe"))))
_add("ip", Spec(readonly=True, category=READ_ONLY, operands="none", value_opts=E("-n -netns -f -family -b -batch -c -color -j -rc -rcvbuf"),
                handler="ip", network=False,
                examples=(("ip addr show", "readonly safe"), ("ip route", "readonly safe"),
                          ("ip link set eth0 down", "mutates notsafe"), ("ip netns exec x sh", "executes notsafe"))))
_add("ifconfig iwconfig route arp", ro(operands="none", handler="operand_mutates", does="changes network settings",
                                       examples=(("ifconfig", "readonly safe"), ("ifconfig eth0 down", "mutates"))))
