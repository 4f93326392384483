# kma - kernel slab allocation accounting from ftrace traces.
#
#   make            build build/analyzer/kma-analyze, kma-diff and kma-push (objects and binaries: build/,
#                   or O=DIR)
#   make check      install missing packages, build, run every test (also under ASan+UBSan,
#                   and as a brand-new machine runs them: make check-fresh); docs/testing.md
#   make test       build and run every test file on the plain build, short sweeps
#                   (TESTS="t-a t-b": those files; KMA_SWEEP=full: every sweep)
#   make demo       install missing packages, build, analyze the bundled fixture
#   make install    honours prefix and DESTDIR; make uninstall removes what it put there
#   make clean      removes $(O)
#
# Packagers: CFLAGS, CPPFLAGS, EXTRA_CFLAGS and LDFLAGS from the command line or the
# environment are honoured (the flags kma cannot build without are in KMA_CFLAGS);
# V=1 prints every command in full.

VERSION		:= 0.1
prefix		?= /usr/local
bindir		?= $(prefix)/bin
mandir		?= $(prefix)/share/man
DESTDIR		?=
O		?= build

CC		?= cc
PKGS		:= libtracecmd libtraceevent libtracefs sqlite3 libdw zlib libzstd libcrypto
# The user's flags (make CFLAGS=-O0 replaces only these) ...
CFLAGS		?= -O2 -g
# ... and the ones the build needs whatever CFLAGS says; -MMD -MP: each object
# depends on the headers it includes (the .d files beside the objects).
KMA_CFLAGS	:= -Wall -Wextra -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE \
		   -DKMA_VERSION='"$(VERSION)"' -Ilib -Ianalyzer -MMD -MP
KMA_LDFLAGS	:=
LDLIBS		+= -lpthread -lm

ifeq ($(SAN),1)
KMA_CFLAGS	+= -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
KMA_LDFLAGS	+= -fsanitize=address,undefined
endif
ALL_CFLAGS	= $(KMA_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS)
ALL_LDFLAGS	= $(KMA_LDFLAGS) $(LDFLAGS)

# V=1: every command in full; make -s: nothing; otherwise one short line per target.
ifeq ($(V),1)
Q		:=
msg		=
else ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
Q		:= @
msg		=
else
Q		:= @
msg		= printf '  %-7s %s\n' $(1) $(2);
endif

# A failed or interrupted command leaves no half-written target behind.
.DELETE_ON_ERROR:

PKG_CFLAGS	= $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS	= $(shell pkg-config --libs $(PKGS) 2>/dev/null)

# Layers (docs/architecture.md): lib/ is the pure-C core (libkma-core.a, also
# linked into the plugin); analyzer/ holds main and one folder per layer.
# Every object goes to $(O) (default build/), never beside its source.
LIB_SRCS	:= $(wildcard lib/*.c)
# (the fleet store's files are kma-push's only: libpq is no dependency of kma-analyze)
LAYER_SRCS	:= $(filter-out analyzer/store/kma-fleet%,$(wildcard analyzer/*/*.c))
CORE_LIB	:= $(O)/lib/libkma-core.a
# What the matcher's unit tests link: accounting and the table printer
MATCH_OBJS	:= $(addprefix $(O)/,$(patsubst %.c,%.o,$(wildcard analyzer/match/*.c) \
		   analyzer/report/kma-table.c))
ANALYZE_OBJS	:= $(addprefix $(O)/,$(patsubst %.c,%.o,analyzer/kma-analyze.c analyzer/kma-options.c \
		   analyzer/kma-options-help.c \
		   analyzer/kma-signals.c analyzer/kma-top.c $(LAYER_SRCS))) $(O)/analyzer/store/kma-schema.o
ANALYZE_OBJS	+= $(O)/analyzer/kma-pagepipe.o	# --pages wiring
ANALYZE_OBJS	+= $(O)/analyzer/kma-analyze-print.o	# which report is printed
ANALYZE_OBJS	+= $(O)/analyzer/kma-analyze-kinds.o	# percpu and vmalloc caller tables
ANALYZE_OBJS	+= $(O)/analyzer/kma-analyze-sites.o	# call-site names: kallsyms, perf.data symbols
ANALYZE_OBJS	+= $(O)/analyzer/kma-analyze-store.o	# report.db: opened, committed
ANALYZE_OBJS	+= $(O)/analyzer/kma-analyze-html.o	# --html in the run
ANALYZE_OBJS	+= $(O)/analyzer/kma-output.o	# the guard of every output
ANALYZE_OBJS	+= $(O)/analyzer/kma-count.o	# --count
ANALYZE_OBJS	+= $(O)/analyzer/kma-stdin.o	# FILE '-': standard input

# --html: its wiring, and the page's script compiled in as a string
ANALYZE_OBJS	+= $(O)/analyzer/kma-html.o $(O)/analyzer/report/kma-html-js.o

BIN		:= $(O)/analyzer/kma-analyze
MARK		:= $(O)/tools/kma-mark
# kma-diff: two runs compared; its layers' objects, not kma-analyze's pipeline
DIFF		:= $(O)/analyzer/kma-diff
DIFF_OBJS	:= $(addprefix $(O)/analyzer/,kma-diff.o kma-diff-help.o match/kma-diffmatch.o report/kma-report-diff.o \
		   report/kma-table.o store/kma-diff-load.o store/kma-schema.o kma-output.o \
		   store/kma-store-file.o kma-runner.o)
# the filters and generations: the allocation rows summed again, judged by kma-select
DIFF_OBJS	+= $(O)/analyzer/store/kma-diff-scope.o $(O)/analyzer/store/kma-diff-page.o \
		   $(filter-out $(DIFF_OBJS),$(MATCH_OBJS))
# store runs as operands (pg:CONNINFO#SELECTORS): libpq, the selectors
DIFF_OBJS	+= $(addprefix $(O)/analyzer/store/,kma-fleet-diff.o kma-fleet-select.o kma-fleet.o \
		   kma-fleet-schema.o kma-fleet-diffkind.o)
# kma-push: runs into the central PostgreSQL store (libpq), its store files and the schema
PUSH		:= $(O)/analyzer/kma-push
PUSH_OBJS	:= $(addprefix $(O)/analyzer/,kma-push.o kma-runner.o store/kma-fleet.o store/kma-fleet-push.o \
		   store/kma-fleet-sha256.o store/kma-fleet-schema.o store/kma-fleet-counts.o \
		   store/kma-fleet-stacks.o store/kma-fleet-allocs.o store/kma-fleet-copy.o \
		   store/kma-stack-key.o)
# run selectors over the fleet store (kma-trend, kma-diff's store operands)
FLEET_SEL_OBJS	:= $(addprefix $(O)/analyzer/store/,kma-fleet-select.o kma-fleet.o kma-fleet-schema.o)
# kma-trend: series over the runs of the fleet store; the output guard for --html
TREND		:= $(O)/analyzer/kma-trend
TREND_OBJS	:= $(addprefix $(O)/analyzer/,kma-trend.o kma-trend-out.o kma-trend-html.o kma-output.o \
		   store/kma-store-file.o store/kma-fleet-read.o report/kma-chartjs.o) $(FLEET_SEL_OBJS)
PQ_CFLAGS	= $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
PQ_LIBS		= $(shell pkg-config --libs libpq 2>/dev/null || echo -lpq) -lcrypto
UNIT_TESTS	:= $(O)/tests/unit/test-match $(O)/tests/unit/test-map $(O)/tests/unit/test-pairs $(O)/tests/unit/test-table \
		   $(O)/tests/unit/test-symtab $(O)/tests/unit/test-dwarf $(O)/tests/elf/kma-symdump \
		   $(O)/tests/unit/test-stacks $(O)/tests/unit/test-select $(O)/tests/unit/test-top \
		   $(O)/tests/unit/test-leak $(O)/tests/unit/test-diff \
		   $(O)/tests/unit/test-pagealloc
UNIT_TESTS	+= $(O)/tests/unit/test-timeline
UNIT_TESTS	+= $(O)/tests/unit/test-crosscpu
UNIT_TESTS	+= $(O)/tests/unit/test-quant
UNIT_TESTS	+= $(O)/tests/unit/test-counters
UNIT_TESTS	+= $(O)/tests/unit/test-err
UNIT_TESTS	+= $(O)/tests/unit/test-stats
UNIT_TESTS	+= $(O)/tests/unit/test-huge
UNIT_TESTS	+= $(O)/tests/unit/test-stackkey
UNIT_TESTS	+= $(O)/tests/unit/test-ksyms
UNIT_TESTS	+= $(O)/tests/kinds/kma-kinds-callers
UNIT_TESTS	+= $(O)/tests/unit/test-kinds
UNIT_TESTS	+= $(O)/tests/unit/test-fleet-select
UNIT_TESTS	+= $(O)/tests/unit/test-reader-kallsyms
UNIT_TESTS	+= $(O)/tests/unit/test-reader-hint
UNIT_TESTS	+= $(O)/tests/unit/test-tracedat-options
UNIT_TESTS	+= $(O)/tests/unit/test-perf-records

.PHONY: bench bench-rss bench-fleet bench-perf bin all deps check-pkgs check test check-fresh unit tools plugin demo install install-user \
	uninstall clean fuzz fuzz-v7

all: check-pkgs $(BIN) $(DIFF) $(MARK) $(PUSH) plugin bin
all: $(TREND)

# One place to run every command from without installing: $(O)/bin
BIN_DIR		:= $(O)/bin
bin: $(BIN) $(DIFF) $(MARK) $(PUSH)
	@mkdir -p $(BIN_DIR)
	@ln -sfr $(BIN) $(DIFF) $(MARK) $(PUSH) tools/kma-record $(BIN_DIR)/
	@ln -sfr $(TREND) $(BIN_DIR)/
bin: $(TREND)

plugin:
	@$(MAKE) --no-print-directory -C plugin O=$(abspath $(O))/plugin

# tests/t-kshark.sh, only where libkshark-dev is: ks-rows reads a trace's rows
# through libkshark with the plugin loaded, as KernelShark does; ks-info-log.so
# (LD_PRELOAD into the kernelshark GUI, so never sanitized) logs the rows it shows.
KSHARK_DEV	:= $(shell pkg-config --exists libkshark 2>/dev/null && echo 1)
KSHARK_INC	= $(patsubst -I%,-isystem %,$(shell pkg-config --cflags libkshark))
tools: $(if $(KSHARK_DEV),$(O)/tests/plugin/ks-rows $(O)/tests/plugin/ks-info-log.so)
$(O)/tests/plugin/ks-rows: tests/plugin/ks-rows.c
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(KSHARK_INC) $(ALL_LDFLAGS) \
		-o $@ $< $$(pkg-config --libs libkshark) -ldl
$(O)/tests/plugin/ks-info-log.so: tests/plugin/ks-info-log.c
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(CFLAGS) -Wall -fPIC -shared $(KSHARK_INC) -o $@ $< -ldl

# Test tools (mktrace, the trace.dat fixture writer; kma-convert, the v6/v7 zlib/zstd/none
# copier), built plain: they are not under test.
tools:
	@$(MAKE) --no-print-directory -C tests/tools O=$(abspath $(O))/tests/tools

deps:
	@sh scripts/install-deps.sh

check-pkgs:
	@pkg-config --exists $(PKGS) libpq || { \
		echo "kma: missing development packages: $$(for p in $(PKGS) libpq; do \
			pkg-config --exists $$p || printf '%s ' $$p; done)"; \
		echo "kma: run 'sh scripts/install-deps.sh' as root (make check / make demo do it)"; \
		exit 1; }

$(O)/analyzer/store/kma-schema.c: schema/kma.sql
	@mkdir -p $(dir $@)
	@{ echo '/* generated from schema/kma.sql - do not edit */'; \
	   echo 'const char kma_schema_sql[] ='; \
	   sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	   echo ';'; } > $@

$(O)/analyzer/store/kma-fleet-schema.c: schema/fleet.sql
	@mkdir -p $(dir $@)
	@{ echo '/* generated from schema/fleet.sql - do not edit */'; \
	   echo 'const char kma_fleet_schema_sql[] ='; \
	   sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	   echo ';'; } > $@

# The core is pure C (no package flags) and position-independent: the plugin links it.
# An object without its .d (built before -MMD, or the .d lost) is built again:
# what it includes is not known. (Named explicitly: a missing intermediate
# prerequisite would not make the object out of date.)
$(sort $(patsubst %.o,%.d,$(addprefix $(O)/,$(LIB_SRCS:.c=.o)) $(ANALYZE_OBJS) $(DIFF_OBJS) \
	$(PUSH_OBJS) $(TREND_OBJS))): ;

$(O)/lib/%.o: lib/%.c $(O)/lib/%.d
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CC,$@)$(CC) $(ALL_CFLAGS) -fPIC -c -o $@ $<

$(CORE_LIB): $(addprefix $(O)/,$(LIB_SRCS:.c=.o))
	@rm -f $@
	$(Q)$(call msg,AR,$@)$(AR) rcs $@ $^

$(O)/analyzer/%.o: analyzer/%.c $(O)/analyzer/%.d
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CC,$@)$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(O)/analyzer/store/kma-schema.o: $(O)/analyzer/store/kma-schema.c
	$(Q)$(call msg,CC,$@)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# the page's script: two files, one function (the second continues the first)
$(O)/analyzer/report/kma-html-js.c: analyzer/report/kma-report-html.js \
				    analyzer/report/kma-report-html-view.js
	@mkdir -p $(dir $@)
	@{ echo '/* generated from analyzer/report/kma-report-html*.js - do not edit */'; \
	   echo 'const char kma_html_app_js[] ='; \
	   sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $^; \
	   echo ';'; } > $@

# the fleet store's objects see libpq's headers
$(O)/analyzer/kma-push.o $(O)/analyzer/store/kma-fleet.o $(O)/analyzer/store/kma-fleet-push.o \
$(O)/analyzer/store/kma-fleet-counts.o $(O)/analyzer/store/kma-fleet-diff.o \
$(O)/analyzer/store/kma-fleet-stacks.o $(O)/analyzer/store/kma-fleet-allocs.o \
$(O)/analyzer/store/kma-fleet-copy.o $(O)/analyzer/store/kma-fleet-diffkind.o: \
	PKG_CFLAGS += $(PQ_CFLAGS)
$(O)/analyzer/store/kma-fleet-select.o $(O)/analyzer/store/kma-fleet-read.o: PKG_CFLAGS += $(PQ_CFLAGS)

$(TREND): $(TREND_OBJS) $(CORE_LIB)
	$(Q)$(call msg,LD,$@)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PQ_LIBS) -lsqlite3 $(LDLIBS)

# run selectors: the parser alone, and against the database KMA_TEST_PG_URL names
$(O)/tests/unit/test-fleet-select: tests/unit/test-fleet-select.c $(FLEET_SEL_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(PQ_CFLAGS) $(ALL_LDFLAGS) -o $@ $< \
		$(FLEET_SEL_OBJS) $(CORE_LIB) $$(pkg-config --cflags --libs cmocka) $(PQ_LIBS) $(LDLIBS)

$(O)/analyzer/store/kma-fleet-schema.o: $(O)/analyzer/store/kma-fleet-schema.c
	$(Q)$(call msg,CC,$@)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(PUSH): $(PUSH_OBJS) $(CORE_LIB)
	$(Q)$(call msg,LD,$@)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PQ_LIBS) -lsqlite3 $(LDLIBS)

$(O)/analyzer/report/kma-html-js.o: $(O)/analyzer/report/kma-html-js.c
	$(Q)$(call msg,CC,$@)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BIN): $(ANALYZE_OBJS) $(CORE_LIB)
	$(Q)$(call msg,LD,$@)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

$(DIFF): $(DIFF_OBJS) $(CORE_LIB)
	$(Q)$(call msg,LD,$@)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) $(PQ_LIBS) $(LDLIBS)

# the allocator kinds: the matcher's objects and the summary by allocator's printer
$(O)/tests/unit/test-kinds: tests/unit/test-kinds.c $(MATCH_OBJS) $(O)/analyzer/report/kma-report-kinds.o \
			    $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(MATCH_OBJS) \
		$(O)/analyzer/report/kma-report-kinds.o $(CORE_LIB) $$(pkg-config --cflags --libs cmocka) \
		$(LDLIBS)

# kma-diff's rows, --fail-if and output: the matcher's objects and the diff printer
$(O)/tests/unit/test-diff: tests/unit/test-diff.c $(MATCH_OBJS) $(O)/analyzer/report/kma-report-diff.o \
			   $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(MATCH_OBJS) $(O)/analyzer/report/kma-report-diff.o \
		$(CORE_LIB) $$(pkg-config --cflags --libs cmocka) $(LDLIBS)

# The symbol layer's tests link libtracecmd (decompression, zlib's codec
# in kma-zlib.o) and libdw.
SYMTAB_OBJS	:= $(O)/analyzer/sites/kma-symtab.o $(O)/analyzer/reader/kma-tracedat.o \
		   $(O)/analyzer/reader/kma-zlib.o

$(O)/tests/unit/test-symtab: tests/unit/test-symtab.c $(SYMTAB_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(SYMTAB_OBJS) $(CORE_LIB) \
		$$(pkg-config --cflags --libs cmocka) $(PKG_LIBS) $(LDLIBS)

# The symbols of a perf.data (kallsyms, System.map, vmlinux and .ko through libelf).
$(O)/tests/unit/test-ksyms: tests/unit/test-ksyms.c $(O)/analyzer/sites/kma-ksyms-src.o \
			    $(O)/analyzer/sites/kma-symtab.o $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(O)/analyzer/sites/kma-ksyms-src.o \
		$(O)/analyzer/sites/kma-symtab.o $(CORE_LIB) $$(pkg-config --cflags --libs cmocka) \
		$(PKG_LIBS) $(LDLIBS)

$(O)/tests/unit/test-dwarf: tests/unit/test-dwarf.c $(O)/analyzer/sites/kma-dwarf.o \
			    $(SYMTAB_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(O)/analyzer/sites/kma-dwarf.o $(SYMTAB_OBJS) \
		$(CORE_LIB) $$(pkg-config --cflags --libs cmocka) $(PKG_LIBS) $(LDLIBS)

# The --live frame: the renderer, the callers' order and the slack% cell.
TOP_OBJS	:= $(O)/analyzer/report/kma-report-top.o $(O)/analyzer/report/kma-caller-sort.o \
		   $(O)/analyzer/report/kma-table.o

$(O)/tests/unit/test-top: tests/unit/test-top.c $(TOP_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(TOP_OBJS) $(CORE_LIB) \
		$$(pkg-config --cflags --libs cmocka) $(LDLIBS)

# The stack layer names frames through the whole sites layer (symtab, DWARF).
STACKS_OBJS	:= $(O)/analyzer/sites/kma-stacks.o $(O)/analyzer/sites/kma-sites.o \
		   $(O)/analyzer/sites/kma-dwarf.o $(SYMTAB_OBJS)

$(O)/tests/unit/test-stacks: tests/unit/test-stacks.c $(STACKS_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(STACKS_OBJS) $(CORE_LIB) \
		$$(pkg-config --cflags --libs cmocka) $(PKG_LIBS) $(LDLIBS)

# The percpu and vmalloc callers as the reader and the sites layer see them
# (tests/t-kinds-decode.sh): the whole reader and the stack layer.
KINDS_OBJS	:= $(addprefix $(O)/,$(patsubst %.c,%.o,$(wildcard analyzer/reader/*.c)))
KINDS_OBJS	+= $(filter-out $(KINDS_OBJS),$(STACKS_OBJS))

$(O)/tests/kinds/kma-kinds-callers: tests/kinds/kma-kinds-callers.c $(KINDS_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(KINDS_OBJS) $(CORE_LIB) \
		$(PKG_LIBS) $(LDLIBS)

# The reader's kallsyms lent to the caller's thread: the whole reader.
$(O)/tests/unit/test-reader-kallsyms: tests/unit/test-reader-kallsyms.c $(KINDS_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(KINDS_OBJS) $(CORE_LIB) \
		$$(pkg-config --cflags --libs cmocka) $(PKG_LIBS) $(LDLIBS)

# The reader's hints of events to come: the whole reader.
$(O)/tests/unit/test-reader-hint: tests/unit/test-reader-hint.c $(KINDS_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(KINDS_OBJS) $(CORE_LIB) \
		$$(pkg-config --cflags --libs cmocka) $(PKG_LIBS) $(LDLIBS)

# What the trace.dat checkers refuse before libtracecmd reads it: the whole reader.
$(O)/tests/unit/test-tracedat-options: tests/unit/test-tracedat-options.c $(KINDS_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(KINDS_OBJS) $(CORE_LIB) \
		$$(pkg-config --cflags --libs cmocka) $(PKG_LIBS) $(LDLIBS)

# The records of a perf.data through its zstd stream: the whole reader.
$(O)/tests/unit/test-perf-records: tests/unit/test-perf-records.c $(KINDS_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(KINDS_OBJS) $(CORE_LIB) \
		$$(pkg-config --cflags --libs cmocka) $(PKG_LIBS) $(LDLIBS)

$(O)/tests/elf/kma-symdump: tests/elf/kma-symdump.c $(SYMTAB_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(SYMTAB_OBJS) $(CORE_LIB) \
		$(PKG_LIBS) $(LDLIBS)

# a stack's fleet key, against libcrypto's one-shot SHA256
$(O)/tests/unit/test-stackkey: tests/unit/test-stackkey.c $(O)/analyzer/store/kma-stack-key.o
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< \
		$(O)/analyzer/store/kma-stack-key.o $$(pkg-config --cflags --libs cmocka) -lcrypto $(LDLIBS)

$(O)/tests/unit/%: tests/unit/%.c $(MATCH_OBJS) $(CORE_LIB)
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(MATCH_OBJS) $(CORE_LIB) \
		$$(pkg-config --cflags --libs cmocka) $(LDLIBS)

# kma-mark: trace markers through libtracefs
$(MARK): tools/kma-mark.c
	@mkdir -p $(dir $@)
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $$(pkg-config --cflags libtracefs) $(ALL_LDFLAGS) -o $@ $< \
		$$(pkg-config --libs libtracefs)

unit: $(UNIT_TESTS) tools

# Everything twice: the ASan+UBSan build in build/san (short sweeps), then the
# plain pass with every sweep as a brand-new machine runs it (tests/fresh.sh
# plain tracefs: a clean copy built with an empty environment, its own mount
# namespace with debugfs and tracefs unmounted, then the files that look at
# tracefs again with tracefs mounted anew); where that cannot run (not root),
# the plain pass on this checkout's build. docs/testing.md. The independent
# checkers' outputs are kept for all passes in build/check-cache (once per
# input, not once per build). One summary line for all of it, after the wall
# time of each pass and of the whole.
JOBS		?= $(shell nproc 2>/dev/null || echo 1)
check: deps
	@export KMA_CHECK_T0=$$(date +%s) KMA_CHECK_CACHE=$(abspath build/check-cache/check); \
	rm -rf "$$KMA_CHECK_CACHE"; \
	$(MAKE) --no-print-directory -j$(JOBS) SAN=1 O=build/san all unit && \
	FRESH=1 bash tests/run.sh build/san

# The edit-test loop: build and run every test file on the plain build, no
# package installs, with the short sweeps (the kernel-layout and input sweeps
# run in make check's plain pass; KMA_SWEEP=full make test runs them here);
# TESTS="t-a t-b" runs only those files. The checkers' outputs are kept
# from one run to the next (keyed by the content of every input, in a folder per
# version of the tools that compute them): an unchanged page or trace is not
# rendered or reported again.
TEST_CACHE	= build/check-cache/test-$$(dpkg-query -W trace-cmd chromium python3 2>/dev/null | \
		  md5sum | cut -c1-12)
test:
	@$(MAKE) --no-print-directory -j$(JOBS) all unit
	@KMA_SWEEP=$${KMA_SWEEP:-short} KMA_CHECK_CACHE=$(abspath .)/$(TEST_CACHE) bash tests/run.sh build

check-fresh: deps
	@bash tests/fresh.sh

# libFuzzer over the reader and the matcher for FUZZ_SECONDS (default 120); needs clang.
fuzz:
	@sh scripts/install-deps.sh fuzz
	@$(MAKE) --no-print-directory tools
	@$(MAKE) --no-print-directory -C tests/fuzz

# The second harness: what lies behind v7 zlib compression (tests/fuzz/fuzz-v7.c).
fuzz-v7:
	@sh scripts/install-deps.sh fuzz
	@$(MAKE) --no-print-directory tools
	@$(MAKE) --no-print-directory -C tests/fuzz v7

# Speed and memory against the bare libtracecmd read and trace-cmd mem (bench/run.sh):
#   make bench [TRACE=file.dat] [BASE=other/kma-analyze]   (default: bench/big.dat, recorded
#   first with bench/record-big.sh when missing; BASE: a second build timed in the same run)
bench: all
	@KMA_ANALYZE=$(abspath $(BIN)) $(if $(BASE),KMA_BASE=$(abspath $(BASE))) bash bench/run.sh $(TRACE)
	@$(MAKE) --no-print-directory bench-fleet

# The fleet store's speed on a private PostgreSQL (bench/fleet.sh): kma-trend over 30 runs.
bench-fleet: all tools
	@KMA_ANALYZE=$(abspath $(BIN)) MKTRACE=$(abspath $(O))/tests/tools/mktrace bash bench/fleet.sh

# Peak RSS of every analysis mode at 2M and 20M events, the same live set (bench/rss.sh,
# also the last part of make bench): fails when a mode grows over 1.3x with the events.
bench-rss: all tools
	@KMA_ANALYZE=$(abspath $(BIN)) MKTRACE=$(abspath $(O))/tests/tools/mktrace bash bench/rss.sh

# kma on perf.data against perf kmem stat --caller, RSS against samples, the four
# allocator kinds at 5M events (bench/perf.sh, also part of make bench; records
# bench/perf-*.data first when missing: root, perf, trace-cmd)
bench-perf: all tools
	@KMA_ANALYZE=$(abspath $(BIN)) MKTRACE=$(abspath $(O))/tests/tools/mktrace bash bench/perf.sh

demo: deps
	@$(MAKE) --no-print-directory all
	$(BIN) -o report.db -n 25 tests/fixtures/basic.dat
	@echo
	@echo "report.db written; try:"
	@echo "  sqlite3 -header -column report.db 'SELECT * FROM caller_stats ORDER BY net DESC LIMIT 10'"

install: all
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man1 $(DESTDIR)$(mandir)/man5
	install -m 755 $(BIN) $(DESTDIR)$(bindir)/kma-analyze
	install -m 755 $(DIFF) $(DESTDIR)$(bindir)/kma-diff
	install -m 755 tools/kma-record $(DESTDIR)$(bindir)/kma-record
	install -m 755 $(MARK) $(DESTDIR)$(bindir)/kma-mark
	install -m 755 $(PUSH) $(DESTDIR)$(bindir)/kma-push
	install -m 644 docs/kma-analyze.1 docs/kma-diff.1 docs/kma-mark.1 docs/kma-record.1 \
		$(DESTDIR)$(mandir)/man1
	install -m 644 docs/kma-push.1 $(DESTDIR)$(mandir)/man1
	install -m 755 $(TREND) $(DESTDIR)$(bindir)/kma-trend
	install -m 644 docs/kma-trend.1 $(DESTDIR)$(mandir)/man1
	install -m 644 docs/kma-report.db.5 $(DESTDIR)$(mandir)/man5/kma-report.db.5
	install -m 644 docs/kma-fleet.5 $(DESTDIR)$(mandir)/man5/kma-fleet.5
	@$(MAKE) --no-print-directory -C plugin O=$(abspath $(O))/plugin install DESTDIR=$(DESTDIR)

# The plugin into ~/.local/lib/traceevent/plugins, for trace-cmd report and KernelShark.
install-user: plugin
	@$(MAKE) --no-print-directory -C plugin O=$(abspath $(O))/plugin install-user

uninstall:
	rm -f $(addprefix $(DESTDIR)$(bindir)/,kma-analyze kma-diff kma-record kma-mark kma-push)
	rm -f $(addprefix $(DESTDIR)$(mandir)/man1/,kma-analyze.1 kma-diff.1 kma-mark.1 kma-record.1 \
		kma-push.1)
	rm -f $(DESTDIR)$(mandir)/man5/kma-report.db.5 $(DESTDIR)$(mandir)/man5/kma-fleet.5
	rm -f $(DESTDIR)$(bindir)/kma-trend $(DESTDIR)$(mandir)/man1/kma-trend.1
	@$(MAKE) --no-print-directory -C plugin O=$(abspath $(O))/plugin uninstall DESTDIR=$(DESTDIR)

clean:
	rm -rf $(O)
	rm -f tests/tools/mktrace tests/tools/kma-convert

# the headers each object and test program includes (-MMD -MP)
-include $(shell find $(O) -name '*.d' 2>/dev/null)
