# kma - kernel slab allocation accounting from ftrace traces.
#
#   make            build analyzer/kma-analyze
#   make check      install missing packages, build, run every test (also under ASan+UBSan)
#   make demo       install missing packages, build, analyze the bundled fixture
#   make install    honours prefix and DESTDIR
#   make clean

VERSION		:= 0.1
prefix		?= /usr/local
bindir		?= $(prefix)/bin
mandir		?= $(prefix)/share/man
DESTDIR		?=
O		?= .

CC		?= cc
PKGS		:= libtracecmd libtraceevent sqlite3
CFLAGS		?= -O2 -g
CFLAGS		+= -Wall -Wextra -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE \
		   -DKMA_VERSION='"$(VERSION)"' -Ianalyzer
LDLIBS		+= -lpthread

ifeq ($(SAN),1)
CFLAGS		+= -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS		+= -fsanitize=address,undefined
endif

PKG_CFLAGS	= $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS	= $(shell pkg-config --libs $(PKGS) 2>/dev/null)

CORE_OBJS	:= kma-match.o kma-map.o kma-strpool.o
ANALYZE_OBJS	:= kma-analyze.o kma-reader.o kma-validate.o kma-store.o kma-schema.o kma-report.o $(CORE_OBJS)

BIN		:= $(O)/analyzer/kma-analyze
UNIT_TESTS	:= $(O)/tests/unit/test-match $(O)/tests/unit/test-map

.PHONY: all deps check-pkgs check unit demo install clean

all: check-pkgs $(BIN)

deps:
	@sh scripts/install-deps.sh

check-pkgs:
	@pkg-config --exists $(PKGS) || { \
		echo "kma: missing development packages: $$(for p in $(PKGS); do \
			pkg-config --exists $$p || printf '%s ' $$p; done)"; \
		echo "kma: run 'sh scripts/install-deps.sh' as root (make check / make demo do it)"; \
		exit 1; }

$(O)/analyzer/kma-schema.c: schema/kma.sql
	@mkdir -p $(dir $@)
	@{ echo '/* generated from schema/kma.sql - do not edit */'; \
	   echo 'const char kma_schema_sql[] ='; \
	   sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	   echo ';'; } > $@

$(O)/analyzer/%.o: analyzer/%.c analyzer/*.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(O)/analyzer/kma-schema.o: $(O)/analyzer/kma-schema.c
	$(CC) $(CFLAGS) -c -o $@ $<

$(BIN): $(addprefix $(O)/analyzer/,$(ANALYZE_OBJS))
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

$(O)/tests/unit/%: tests/unit/%.c $(addprefix $(O)/analyzer/,$(CORE_OBJS)) analyzer/*.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(addprefix $(O)/analyzer/,$(CORE_OBJS)) \
		$$(pkg-config --cflags --libs cmocka) $(LDLIBS)

unit: $(UNIT_TESTS)

# Everything twice: the plain build, then the ASan+UBSan build in build/san.
check: deps
	@$(MAKE) --no-print-directory all unit
	@$(MAKE) --no-print-directory SAN=1 O=build/san all unit
	@sh tests/run.sh . build/san

demo: deps
	@$(MAKE) --no-print-directory all
	$(BIN) -o report.db -n 25 tests/fixtures/basic.dat
	@echo
	@echo "report.db written; try:"
	@echo "  sqlite3 -header -column report.db 'SELECT * FROM caller_stats ORDER BY net DESC LIMIT 10'"

install: all
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(mandir)/man5
	install -m 755 $(BIN) $(DESTDIR)$(bindir)/kma-analyze
	install -m 644 docs/kma-report.db.5 $(DESTDIR)$(mandir)/man5/kma-report.db.5

clean:
	rm -f analyzer/*.o analyzer/kma-schema.c $(BIN) $(UNIT_TESTS)
	rm -rf build
