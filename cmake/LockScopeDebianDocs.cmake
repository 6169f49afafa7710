# The two files Debian policy asks of every binary package, made at configure time from the
# repository's own LICENSE and version so they never drift:
#   usr/share/doc/<package>/copyright      machine-readable (DEP-5) with the MIT text
#   usr/share/doc/<package>/changelog.gz   a native-package Debian changelog entry that points
#                                          to CHANGELOG.md, installed beside it
# Both are installed per component because lintian checks each package on its own.
set(_debian_doc_dir ${PROJECT_BINARY_DIR}/debian-doc)
file(MAKE_DIRECTORY ${_debian_doc_dir})

# DEP-5 wants the licence text indented by one space and empty lines written as " .";
# the text starts at "Permission", after the title and copyright lines it states apart.
file(READ ${PROJECT_SOURCE_DIR}/LICENSE _license)
string(REGEX MATCH "Copyright \\(c\\) ([^\n]*)" _ "${_license}")
set(_copyright_holder "${CMAKE_MATCH_1}")
string(FIND "${_license}" "Permission" _text_start)
string(SUBSTRING "${_license}" ${_text_start} -1 _license)
string(STRIP "${_license}" _license)
string(REPLACE "\n" "\n " _license_body " ${_license}")
string(REPLACE "\n \n" "\n .\n" _license_body "${_license_body}
")
file(WRITE ${_debian_doc_dir}/copyright
"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: LockScope
Upstream-Contact: ${LOCKSCOPE_PACKAGE_MAINTAINER}

Files: *
Copyright: ${_copyright_holder}
License: MIT
${_license_body}
")

# The date of the entry is the configure time unless SOURCE_DATE_EPOCH pins it (reproducible
# builds); string(TIMESTAMP) honours that variable.
string(TIMESTAMP _changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${_debian_doc_dir}/changelog
"lockscope (${PROJECT_VERSION}) unstable; urgency=medium

  * Release ${PROJECT_VERSION}; the changes are listed in CHANGELOG.md beside this file.

 -- ${LOCKSCOPE_PACKAGE_MAINTAINER}  ${_changelog_date}
")
find_program(LOCKSCOPE_GZIP gzip REQUIRED)
execute_process(COMMAND ${LOCKSCOPE_GZIP} -9nf ${_debian_doc_dir}/changelog
                COMMAND_ERROR_IS_FATAL ANY)

set(_components runtime development)
set(_packages lockscope lockscope-dev)
foreach(component package IN ZIP_LISTS _components _packages)
  install(FILES ${_debian_doc_dir}/copyright ${_debian_doc_dir}/changelog.gz
                ${PROJECT_SOURCE_DIR}/CHANGELOG.md
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component})
endforeach()
