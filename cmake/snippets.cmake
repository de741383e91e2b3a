# snippets.cmake -- keep the code blocks in chapters/*.md in sync with the source.
#
#   cmake -DROOT=<repo root> -DMODE=check  -P cmake/snippets.cmake
#   cmake -DROOT=<repo root> -DMODE=update -P cmake/snippets.cmake
#
# Source side: mdBook anchor comments.  A line containing `ANCHOR: name` opens
# region `name`, a line containing `ANCHOR_END: name` closes it.  The region
# text is the lines strictly between the two markers, byte for byte, minus
# every line that carries any ANCHOR/ANCHOR_END marker (nested anchors vanish).
#
# Chapter side: the line directly before an opening code fence may carry
#   <!-- snippet: path/from/repo/root:anchor -->   block body == region text
#   <!-- not-from-source -->                       C++ that is not from src/
# Every ```cpp / ```c++ block needs one of the two; blocks in other languages
# are checked only when they carry a snippet marker.
#
# check:  report every problem, print a summary, FATAL_ERROR if any problem.
# update: rewrite stale blocks from the source (only changed files are
#         written); the remaining problems are reported as in check.
#
# Implementation notes (CMake is hostile to arbitrary text):
#  * files are read with file(READ) (file(STRINGS) mangles [ ] and \);
#  * before splitting a file into a list of lines, the bytes \ ; [ ] are
#    replaced by the control characters \x01..\x04 (CMake lists split on `;`,
#    honour `\;` and do not split inside [ ]); they are restored on output;
#  * user text is only ever passed as quoted variable values, never evaluated.

cmake_minimum_required(VERSION 3.25)

# --------------------------------------------------------------------------
# arguments
if(NOT DEFINED ROOT OR "${ROOT}" STREQUAL "")
  message(FATAL_ERROR "snippets: pass -DROOT=<repository root>")
endif()
if(NOT DEFINED MODE OR "${MODE}" STREQUAL "")
  set(MODE check)
endif()
if(NOT MODE STREQUAL "check" AND NOT MODE STREQUAL "update")
  message(FATAL_ERROR "snippets: MODE must be 'check' or 'update', not '${MODE}'")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)
if(NOT IS_DIRECTORY "${ROOT}")
  message(FATAL_ERROR "snippets: ROOT '${ROOT}' is not a directory")
endif()

# placeholders for the list-hostile bytes
string(ASCII 1 _P_BSL)   # backslash
string(ASCII 2 _P_SEMI)  # ;
string(ASCII 3 _P_LBR)   # [
string(ASCII 4 _P_RBR)   # ]

set(_problems 0)
set(_report "")

function(_snip_problem text)
  math(EXPR n "${_problems} + 1")
  set(_problems ${n} PARENT_SCOPE)
  message(NOTICE "${text}")
endfunction()

# _snip_read(<file> <out-var> <ok-var>): read <file>, escape it, set <out-var>
# to a CMake list with one (escaped) element per line.
function(_snip_read file out ok)
  file(READ "${file}" c)
  string(FIND "${c}" "${_P_BSL}" f1)
  string(FIND "${c}" "${_P_SEMI}" f2)
  string(FIND "${c}" "${_P_LBR}" f3)
  string(FIND "${c}" "${_P_RBR}" f4)
  if(NOT f1 EQUAL -1 OR NOT f2 EQUAL -1 OR NOT f3 EQUAL -1 OR NOT f4 EQUAL -1)
    set(${ok} FALSE PARENT_SCOPE)
    return()
  endif()
  string(REPLACE "\\" "${_P_BSL}" c "${c}")
  string(REPLACE ";" "${_P_SEMI}" c "${c}")
  string(REPLACE "[" "${_P_LBR}" c "${c}")
  string(REPLACE "]" "${_P_RBR}" c "${c}")
  string(REPLACE "\n" ";" c "${c}")
  set(${out} "${c}" PARENT_SCOPE)
  set(${ok} TRUE PARENT_SCOPE)
endfunction()

# _snip_unescape(<out-var> <text>)
function(_snip_unescape out text)
  string(REPLACE "${_P_BSL}" "\\" text "${text}")
  string(REPLACE "${_P_SEMI}" ";" text "${text}")
  string(REPLACE "${_P_LBR}" "[" text "${text}")
  string(REPLACE "${_P_RBR}" "]" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# _snip_lines(<list-var> <count-var> <escaped text, lines terminated by \n>)
# -> list of the lines (plus one trailing empty element) and the line count.
function(_snip_lines out count text)
  if(text STREQUAL "")
    set(${out} "" PARENT_SCOPE)
    set(${count} 0 PARENT_SCOPE)
    return()
  endif()
  string(REPLACE "\n" ";" l "${text}")
  list(LENGTH l n)
  math(EXPR n "${n} - 1")
  set(${out} "${l}" PARENT_SCOPE)
  set(${count} ${n} PARENT_SCOPE)
endfunction()

# _snip_prefix(<out-var> <prefix> <escaped text, lines terminated by \n>)
# -> unescaped text with every line prefixed, or "<prefix>(empty)".
function(_snip_prefix out prefix text)
  if(text STREQUAL "")
    set(${out} "${prefix}(empty)\n" PARENT_SCOPE)
    return()
  endif()
  _snip_lines(lines n "${text}")
  set(r "")
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    list(GET lines ${i} l)
    string(APPEND r "${prefix}${l}\n")
  endforeach()
  _snip_unescape(r "${r}")
  set(${out} "${r}" PARENT_SCOPE)
endfunction()

# _snip_visible(<out-var> <escaped line>): quoted, tabs as \t (shows
# trailing/odd whitespace in the "first difference" hint).
function(_snip_visible out line)
  _snip_unescape(line "${line}")
  string(REPLACE "\t" "\\t" line "${line}")
  set(${out} "\"${line}\"" PARENT_SCOPE)
endfunction()

# _snip_load(<relpath>): parse a source file once; sets (in the caller's
# scope, i.e. globally for this script):
#   _SF_<key>_state  = ok | missing | notfile | binary
#   _SR_<key>_<name> = region text (escaped, each line + \n)
#   _SS_<key>_<name> = open | done | dup        (region state)
#   _SL_<key>_<name> = line number of the first ANCHOR: line
macro(_snip_load relpath)
  string(MD5 _key "${relpath}")
  if(NOT DEFINED _SF_${_key}_state)
    set(_s_abs "${ROOT}/${relpath}")
    if(NOT EXISTS "${_s_abs}")
      set(_SF_${_key}_state missing)
    elseif(IS_DIRECTORY "${_s_abs}")
      set(_SF_${_key}_state notfile)
    else()
      _snip_read("${_s_abs}" _s_lines _s_ok)
      if(NOT _s_ok)
        set(_SF_${_key}_state binary)
      else()
        set(_SF_${_key}_state ok)
        set(_s_open "")
        set(_s_ln 0)
        foreach(_s_l IN LISTS _s_lines)
          math(EXPR _s_ln "${_s_ln} + 1")
          if(_s_l MATCHES "ANCHOR(_END)?:")
            string(REGEX MATCHALL "ANCHOR_END:[ \t]*[A-Za-z0-9_-]+" _s_ends "${_s_l}")
            string(REGEX MATCHALL "ANCHOR:[ \t]*[A-Za-z0-9_-]+" _s_starts "${_s_l}")
            if(_s_ends OR _s_starts)
              # a marker line: never part of any region
              foreach(_s_m IN LISTS _s_ends)
                string(REGEX REPLACE "^ANCHOR_END:[ \t]*" "" _s_n "${_s_m}")
                list(FIND _s_open "${_s_n}" _s_i)
                if(NOT _s_i EQUAL -1)
                  list(REMOVE_AT _s_open ${_s_i})
                  if(_SS_${_key}_${_s_n} STREQUAL "open")
                    set(_SS_${_key}_${_s_n} done)
                  endif()
                endif()
              endforeach()
              foreach(_s_m IN LISTS _s_starts)
                string(REGEX REPLACE "^ANCHOR:[ \t]*" "" _s_n "${_s_m}")
                if(DEFINED _SS_${_key}_${_s_n})
                  set(_SS_${_key}_${_s_n} dup)
                  list(APPEND _SD_${_key}_${_s_n} ${_s_ln})
                else()
                  set(_SS_${_key}_${_s_n} open)
                  set(_SL_${_key}_${_s_n} ${_s_ln})
                  set(_SR_${_key}_${_s_n} "")
                  list(APPEND _s_open "${_s_n}")
                endif()
              endforeach()
              continue()
            endif()
          endif()
          foreach(_s_n IN LISTS _s_open)
            string(APPEND _SR_${_key}_${_s_n} "${_s_l}\n")
          endforeach()
        endforeach()
      endif()
    endif()
  endif()
endmacro()

# --------------------------------------------------------------------------
# chapters
set(_chapter_dir "${ROOT}/chapters")
set(_chapters "")
if(IS_DIRECTORY "${_chapter_dir}")
  file(GLOB _chapters LIST_DIRECTORIES false "${_chapter_dir}/*.md")
  list(SORT _chapters)
else()
  message(NOTICE "snippets: no chapters/ directory under ${ROOT}")
endif()

set(_nblocks 0)
set(_nchapters 0)
set(_nupdated 0)

foreach(_chap IN LISTS _chapters)
  math(EXPR _nchapters "${_nchapters} + 1")
  file(RELATIVE_PATH _crel "${ROOT}" "${_chap}")
  _snip_read("${_chap}" _lines _ok)
  if(NOT _ok)
    _snip_problem("${_crel}: contains control characters \\x01-\\x04; cannot process")
    continue()
  endif()

  set(_out "")           # rebuilt file (escaped), each element + \n
  set(_changed FALSE)
  set(_in FALSE)         # inside a fenced block?
  set(_prev_kind none)   # marker kind of the previous line: none|snippet|nfs|bad
  set(_prev_line 0)
  set(_ln 0)

  foreach(_l IN LISTS _lines)
    math(EXPR _ln "${_ln} + 1")
    string(REGEX REPLACE "\r$" "" _lt "${_l}")   # tolerate CRLF for syntax

    if(_in)
      # ---- inside a block: closing fence?
      set(_closing FALSE)
      if(_lt MATCHES "^ *(${_fence_re}+)[ \t]*$")
        string(LENGTH "${CMAKE_MATCH_1}" _flen)
        if(_flen GREATER_EQUAL _fence_len)
          set(_closing TRUE)
        endif()
      endif()
      if(NOT _closing)
        string(APPEND _raw "${_l}\n")
        # drop up to <indent> leading spaces (CommonMark)
        if(_indent GREATER 0 AND _l MATCHES "^( +)")
          string(LENGTH "${CMAKE_MATCH_1}" _sp)
          if(_sp GREATER _indent)
            set(_sp ${_indent})
          endif()
          string(SUBSTRING "${_l}" ${_sp} -1 _l)
        endif()
        string(APPEND _body "${_l}\n")
        continue()
      endif()

      # ---- block complete: evaluate it
      set(_in FALSE)
      math(EXPR _nblocks "${_nblocks} + 1")
      set(_newbody "${_raw}")
      if(_mkind STREQUAL "snippet")
        _snip_load("${_mpath}")
        set(_st "${_SF_${_key}_state}")
        if(_st STREQUAL "missing")
          _snip_problem("${_crel}:${_mline}: snippet marker names a missing file '${_mpath}' (anchor '${_manchor}')")
        elseif(_st STREQUAL "notfile")
          _snip_problem("${_crel}:${_mline}: snippet marker names '${_mpath}', which is not a regular file")
        elseif(_st STREQUAL "binary")
          _snip_problem("${_crel}:${_mline}: '${_mpath}' contains control characters \\x01-\\x04; cannot process")
        elseif(NOT DEFINED _SS_${_key}_${_manchor})
          _snip_problem("${_crel}:${_mline}: anchor '${_manchor}' not found in '${_mpath}' (no line with 'ANCHOR: ${_manchor}')")
        elseif(_SS_${_key}_${_manchor} STREQUAL "open")
          _snip_problem("${_crel}:${_mline}: anchor '${_manchor}' is started at ${_mpath}:${_SL_${_key}_${_manchor}} but never ended (no 'ANCHOR_END: ${_manchor}')")
        elseif(_SS_${_key}_${_manchor} STREQUAL "dup")
          string(REPLACE ";" ", " _dl "${_SD_${_key}_${_manchor}}")
          _snip_problem("${_crel}:${_mline}: anchor '${_manchor}' is started more than once in '${_mpath}' (lines ${_SL_${_key}_${_manchor}}, ${_dl})")
        else()
          set(_src "${_SR_${_key}_${_manchor}}")
          if(NOT "${_body}" STREQUAL "${_src}")
            if(MODE STREQUAL "update")
              # re-indent to the fence's indentation (blank lines stay empty)
              if(_indent GREATER 0)
                set(_newbody "")
                _snip_lines(_tmp _nt "${_src}")
                set(_i 0)
                while(_i LESS _nt)
                  list(GET _tmp ${_i} _sl)
                  if(_sl STREQUAL "")
                    string(APPEND _newbody "\n")
                  else()
                    string(APPEND _newbody "${_indent_str}${_sl}\n")
                  endif()
                  math(EXPR _i "${_i} + 1")
                endwhile()
              else()
                set(_newbody "${_src}")
              endif()
              set(_changed TRUE)
              math(EXPR _nupdated "${_nupdated} + 1")
              message(NOTICE "snippets: updated ${_crel}:${_fline} from ${_mpath}:${_manchor}")
            else()
              # locate the first differing line
              _snip_lines(_a _na "${_body}")
              _snip_lines(_b _nb "${_src}")
              set(_k 0)
              while(_k LESS _na AND _k LESS _nb)
                list(GET _a ${_k} _x)
                list(GET _b ${_k} _y)
                if(NOT "${_x}" STREQUAL "${_y}")
                  break()
                endif()
                math(EXPR _k "${_k} + 1")
              endwhile()
              if(_k LESS _na)
                list(GET _a ${_k} _x)
                _snip_visible(_x "${_x}")
              else()
                set(_x "(end of block)")
              endif()
              if(_k LESS _nb)
                list(GET _b ${_k} _y)
                _snip_visible(_y "${_y}")
              else()
                set(_y "(end of region)")
              endif()
              math(EXPR _dline "${_fline} + 1 + ${_k}")
              math(EXPR _k1 "${_k} + 1")
              _snip_prefix(_pa "  chapter| " "${_body}")
              _snip_prefix(_pb "  source | " "${_src}")
              string(CONCAT _msg
                "${_crel}:${_fline}: block differs from ${_mpath}:${_manchor} (source region starts at ${_mpath}:${_SL_${_key}_${_manchor}})\n"
                "  first difference at ${_crel}:${_dline} (block line ${_k1}; block has ${_na} lines, region ${_nb}):\n"
                "    chapter: ${_x}\n"
                "    source : ${_y}\n"
                "  chapter version (${_crel}:${_fline}):\n${_pa}"
                "  source version (${_mpath}:${_manchor}):\n${_pb}"
                "  fix: cmake --build --preset release --target snippets-update")
              _snip_problem("${_msg}")
            endif()
          endif()
        endif()
      elseif(_mkind STREQUAL "none" AND (_lang STREQUAL "cpp" OR _lang STREQUAL "c++"))
        _snip_problem("${_crel}:${_fline}: ${_lang} block without a marker; put <!-- snippet: path:anchor --> or <!-- not-from-source --> on the line directly before the fence")
      endif()
      string(APPEND _out "${_newbody}${_l}\n")
      set(_prev_kind none)
      continue()
    endif()

    # ---- outside a block
    set(_is_fence FALSE)
    if(_lt MATCHES "^( *)(```+|~~~+)(.*)$")
      set(_is_fence TRUE)
      set(_indent_str "${CMAKE_MATCH_1}")
      set(_fence "${CMAKE_MATCH_2}")
      set(_info "${CMAKE_MATCH_3}")
      if(_fence MATCHES "^`" AND _info MATCHES "`")
        set(_is_fence FALSE)   # inline code such as ```x``` is not a fence
      endif()
    endif()

    if(_is_fence)
      string(LENGTH "${_fence}" _fence_len)
      string(LENGTH "${_indent_str}" _indent)
      if(_fence MATCHES "^`")
        set(_fence_re "`")
      else()
        set(_fence_re "~")
      endif()
      string(STRIP "${_info}" _info)
      set(_lang "")
      if(_info MATCHES "^([^ \t,{]+)")
        set(_lang "${CMAKE_MATCH_1}")
      endif()
      string(TOLOWER "${_lang}" _lang)
      set(_fline ${_ln})
      set(_mkind "${_prev_kind}")
      if(_mkind STREQUAL "bad")
        _snip_problem("${_crel}:${_prev_line}: malformed marker; expected <!-- snippet: path/from/root:anchor --> or <!-- not-from-source -->")
        set(_mkind "nfs")   # do not report the block a second time
      endif()
      set(_mline ${_prev_line})
      set(_mpath "${_prev_path}")
      set(_manchor "${_prev_anchor}")
      set(_in TRUE)
      set(_body "")
      set(_raw "")
      string(APPEND _out "${_l}\n")
      set(_prev_kind none)
      continue()
    endif()

    if(NOT _prev_kind STREQUAL "none")
      _snip_problem("${_crel}:${_prev_line}: marker is not directly followed by a code fence (the marker must be on the line right before the opening ``` or ~~~)")
    endif()
    set(_prev_kind none)
    if(_lt MATCHES "^[ \t]*<!--[ \t]*snippet")
      if(_lt MATCHES "^[ \t]*<!--[ \t]*snippet:[ \t]*([^ \t].*):([A-Za-z0-9_-]+)[ \t]*-->[ \t]*$")
        set(_prev_kind snippet)
        string(STRIP "${CMAKE_MATCH_1}" _prev_path)
        set(_prev_anchor "${CMAKE_MATCH_2}")
        _snip_unescape(_prev_path "${_prev_path}")
      else()
        set(_prev_kind bad)
      endif()
      set(_prev_line ${_ln})
    elseif(_lt MATCHES "^[ \t]*<!--[ \t]*not-from-source")
      if(_lt MATCHES "^[ \t]*<!--[ \t]*not-from-source[ \t]*-->[ \t]*$")
        set(_prev_kind nfs)
      else()
        set(_prev_kind bad)
      endif()
      set(_prev_line ${_ln})
    endif()
    string(APPEND _out "${_l}\n")
  endforeach()

  if(_in)
    _snip_problem("${_crel}:${_fline}: code fence '${_fence}' is never closed")
    string(APPEND _out "${_raw}")
  elseif(NOT _prev_kind STREQUAL "none")
    _snip_problem("${_crel}:${_prev_line}: marker is not directly followed by a code fence (the marker must be on the line right before the opening ``` or ~~~)")
  endif()

  if(_changed)
    # every element got a \n appended; the original has one fewer
    string(LENGTH "${_out}" _len)
    math(EXPR _len "${_len} - 1")
    string(SUBSTRING "${_out}" 0 ${_len} _out)
    _snip_unescape(_out "${_out}")
    file(WRITE "${_chap}" "${_out}")
  endif()
endforeach()

if(MODE STREQUAL "update")
  message(NOTICE "snippets: ${_nblocks} blocks checked in ${_nchapters} chapters, ${_nupdated} blocks updated, ${_problems} problems")
else()
  message(NOTICE "snippets: ${_nblocks} blocks checked in ${_nchapters} chapters, ${_problems} problems")
endif()
if(_problems GREATER 0)
  message(FATAL_ERROR "snippets: ${MODE} failed with ${_problems} problems (see above)")
endif()
