#!/usr/bin/env bash
# Makes the import test files from network.geojson with GDAL (Debian: apt-get install gdal-bin zip),
# the way utilities' GIS tools write them. The results are committed; tests do not need GDAL.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Field names as Chinese surveys abbreviate them in pinyin (a .dbf name has at most 10 bytes).
PINYIN='SELECT "编号" AS GXBH, "管线类型" AS GXLX, "材质" AS CZ, "管径" AS GJ, "建设年代" AS JSND, "埋深" AS MS, "权属单位" AS QSDW FROM network'

shapefile() { # name, target EPSG code, encoding, then ogr2ogr options
  mkdir -p "$work/$1"
  ogr2ogr -f 'ESRI Shapefile' -lco "ENCODING=$3" -s_srs EPSG:4326 -t_srs "EPSG:$2" "$work/$1/$1.shp" network.geojson "${@:4}"
  rm -f "$1.zip" && (cd "$work/$1" && zip -q -X "$OLDPWD/$1.zip" ./*)
}
shapefile network-cgcs2000 4490 CP936                 # CGCS2000 geographic, Chinese names in GBK
shapefile network-utm51n 32651 UTF-8 -sql "$PINYIN"   # WGS 84 / UTM zone 51N
shapefile network-webmercator 3857 UTF-8 -sql "$PINYIN"
shapefile network-gk120 4549 UTF-8 -sql "$PINYIN"     # CGCS2000 / 3-degree Gauss-Kruger CM 120E

# A shapefile without its .prj: the coordinate system is unknown.
mkdir -p "$work/no-prj"
ogr2ogr -f 'ESRI Shapefile' -lco ENCODING=UTF-8 -t_srs EPSG:32651 "$work/no-prj/no-prj.shp" network.geojson -sql "$PINYIN"
rm "$work/no-prj/no-prj.prj"
rm -f no-prj.zip && (cd "$work/no-prj" && zip -q -X "$OLDPWD/no-prj.zip" ./*)

# Upper-case file names, as some GIS tools write them, with the install date as a DBF Date field
# named as Chinese surveys do (MSSJ, 埋设时间).
mkdir -p "$work/upper"
ogr2ogr -f 'ESRI Shapefile' -lco ENCODING=UTF-8 "$work/upper/PIPES.shp" network.geojson \
  -sql "SELECT \"编号\" AS GXBH, \"管线类型\" AS GXLX, \"管径\" AS GJ, CAST(CONCAT(CAST(\"建设年代\" AS character(4)), '/06/01') AS date) AS MSSJ FROM network"
rm -f upper-case-dates.zip && (cd "$work/upper" && zip -q -X "$OLDPWD/upper-case-dates.zip" ./*)
rm -f shp-without-dbf.zip && (cd "$work/upper" && zip -q -X "$OLDPWD/shp-without-dbf.zip" PIPES.shp PIPES.shx PIPES.prj)

# A KMZ as GDAL's LIBKML driver writes it: doc.kml with a network link to layers/network.kml.
rm -f network-libkml.kmz && ogr2ogr -f LIBKML network-libkml.kmz network.geojson

# A zip cut short in transfer.
head -c 700 network-cgcs2000.zip > corrupt.zip

ogr2ogr -f KML network.kml network.geojson
ogr2ogr -f CSV -lco GEOMETRY=AS_WKT network.csv network.geojson

# InSAR points for the settlement import: a zipped Shapefile in CGCS2000 / Gauss-Kruger CM 120E and
# a KML, both from settlement-points.geojson (a .dbf field name holds 10 bytes: dates as D20230105).
POINTS='SELECT "点号" AS pid, "形变速率" AS vel, "相干性" AS coh, "2023-01-05" AS D20230105, "2023-01-17" AS D20230117, "2023-01-29" AS D20230129 FROM settlement_points'
mkdir -p "$work/points"
ogr2ogr -f 'ESRI Shapefile' -lco ENCODING=UTF-8 -s_srs EPSG:4326 -t_srs EPSG:4549 "$work/points/points.shp" settlement-points.geojson -sql "$POINTS"
rm -f settlement-points.zip && (cd "$work/points" && zip -q -X "$OLDPWD/settlement-points.zip" ./*)
rm -f settlement-points.kml && ogr2ogr -f KML settlement-points.kml settlement-points.geojson -sql "$POINTS"
