import type { Language } from './envelope.ts';
import { SETTLEMENT_MESSAGES } from './settlementMessages.ts';
import { CONSTRUCTION_MESSAGES } from './constructionMessages.ts';
import { RISK_AREA_MESSAGES } from './riskAreaMessages.ts';
import { WEATHER_MESSAGES } from './weatherMessages.ts';
import { SENSOR_MESSAGES } from './sensorMessages.ts';
import { PIPE_RISK_MESSAGES } from './pipeRiskMessages.ts';
import { ALERT_MESSAGES } from './alertMessages.ts';
import { OPEN_DATA_MESSAGES } from './openDataMessages.ts';
import { REPORT_MESSAGES } from './reportMessages.ts';

/**
 * Messages the server sends and custom validation messages of the contract, in both languages.
 * Keys are stable; the console may show a server message as is (it already comes in the
 * request's language).
 */
const CORE_MESSAGES = {
  ok: { 'en-US': 'OK', 'zh-CN': '操作成功' },
  'login.failed': { 'en-US': 'wrong username or password', 'zh-CN': '账户名或密码错误' },
  'login.locked': {
    'en-US': 'Too many failed sign-in attempts, try again in {minutes} minute(s)',
    'zh-CN': '登录失败次数过多，请 {minutes} 分钟后再试',
  },
  'auth.unauthorized': { 'en-US': 'Authorization verification failed', 'zh-CN': '授权验证失败' },
  'auth.forbidden': { 'en-US': 'You have no permission to do this', 'zh-CN': '您没有执行此操作的权限' },
  'auth.platformAdminOnly': {
    'en-US': 'Only a platform administrator may do this',
    'zh-CN': '只有平台管理员可以执行此操作',
  },
  'enterprise.notMember': {
    'en-US': 'You are not an active member of this enterprise',
    'zh-CN': '您不是该企业的有效成员',
  },
  'enterprise.notVerified': { 'en-US': 'This enterprise is not verified yet', 'zh-CN': '该企业尚未通过审核' },
  'enterprise.headerInvalid': {
    'en-US': 'Enterprise-Id header: must be a positive integer',
    'zh-CN': 'Enterprise-Id 请求头：必须是正整数',
  },
  'enterprise.none': { 'en-US': 'You have not joined any enterprise', 'zh-CN': '您尚未加入任何企业' },
  'enterprise.registered': {
    'en-US': 'Enterprise registered, waiting for verification',
    'zh-CN': '企业已注册，等待平台审核',
  },
  'enterprise.applied': {
    'en-US': 'Application sent, waiting for the enterprise administrator',
    'zh-CN': '申请已提交，等待企业管理员审批',
  },
  'enterprise.alreadyMember': {
    'en-US': 'enterpriseId: you are already a member of this enterprise',
    'zh-CN': 'enterpriseId：您已是该企业成员',
  },
  'enterprise.alreadyApplied': {
    'en-US': 'enterpriseId: you have already applied to join this enterprise',
    'zh-CN': 'enterpriseId：您已申请加入该企业，请等待审批',
  },
  'enterprise.lastAdmin': {
    'en-US': 'userId: an enterprise must keep at least one administrator',
    'zh-CN': 'userId：企业至少需要保留一名管理员',
  },
  'enterprise.notPending': { 'en-US': 'This request has already been decided', 'zh-CN': '该申请已处理' },
  'password.changed': { 'en-US': 'Password changed, please sign in again', 'zh-CN': '密码修改成功，请重新登录' },
  'password.oldWrong': { 'en-US': 'Old password: this is not your current password', 'zh-CN': '原密码：与当前密码不符' },
  'password.reset': { 'en-US': 'Password reset, please sign in', 'zh-CN': '密码已重置，请登录' },
  'sms.sent': { 'en-US': 'Verification code sent', 'zh-CN': '验证码已发送' },
  'rate.tooMany': {
    'en-US': 'Too many requests from this address, try again in {seconds} s',
    'zh-CN': '请求过于频繁，请 {seconds} 秒后再试',
  },
  'alerts.tooManyStreams': {
    'en-US': 'Too many live alert streams are open ({max} for {who}): close other console tabs and reload',
    'zh-CN': '实时告警连接过多（{who}最多 {max} 个）：请关闭其他控制台标签页后刷新',
  },
  'alerts.streamsOfSignIn': { 'en-US': 'one sign-in', 'zh-CN': '每个登录' },
  'alerts.streamsOfAddress': { 'en-US': 'one address', 'zh-CN': '每个地址' },
  'sms.tooSoon': {
    'en-US': 'phone: a code was sent less than a minute ago, try again in {seconds} s',
    'zh-CN': 'phone：验证码发送过于频繁，请 {seconds} 秒后再试',
  },
  'sms.invalid': {
    'en-US': 'smsCode: the verification code is wrong or has expired',
    'zh-CN': 'smsCode：验证码错误或已过期',
  },
  'sms.unknownPhone': {
    'en-US': 'phone: no account uses this phone number',
    'zh-CN': 'phone：该手机号未注册',
  },
  'register.done': { 'en-US': 'Account registered', 'zh-CN': '注册成功' },
  'conflict.username': { 'en-US': 'username: this username is already taken', 'zh-CN': 'username：用户名已被占用' },
  'conflict.phone': { 'en-US': 'phone: this phone number is already registered', 'zh-CN': 'phone：手机号已被注册' },
  'conflict.enterpriseName': {
    'en-US': 'enterpriseName: an enterprise with this name already exists',
    'zh-CN': 'enterpriseName：企业名称已存在',
  },
  'conflict.creditCode': {
    'en-US': 'creditCode: an enterprise with this credit code already exists',
    'zh-CN': 'creditCode：统一社会信用代码已被注册',
  },
  'notFound.route': { 'en-US': 'No such API route', 'zh-CN': '接口不存在' },
  'notFound.enterprise': { 'en-US': 'Enterprise not found', 'zh-CN': '企业不存在' },
  'notFound.member': { 'en-US': 'Member not found in this enterprise', 'zh-CN': '该企业中没有此成员' },
  'notFound.joinRequest': { 'en-US': 'Join request not found', 'zh-CN': '加入申请不存在' },
  'error.internal': { 'en-US': 'Internal server error', 'zh-CN': '服务器内部错误' },
  'error.diskFull': { 'en-US': 'The server has no disk space left: nothing was kept. Try again later or tell your administrator', 'zh-CN': '服务器磁盘空间已满，未保存任何内容。请稍后重试或联系管理员' },
  'error.databaseUnavailable': { 'en-US': 'The database cannot be reached; the server is retrying. Try again in a few seconds', 'zh-CN': '数据库暂时无法连接，服务器正在重试，请稍后再试' },
  'error.tooLarge': { 'en-US': 'The request body is too large', 'zh-CN': '请求内容过大' },
  'error.badBody': { 'en-US': 'The request body cannot be read', 'zh-CN': '请求内容无法解析' },
  'import.wordAnswer': { 'en-US': 'words: “{value}” is not a value of {field}', 'zh-CN': 'words：“{value}”不是 {field} 的可选值' },
  'field.required': { 'en-US': 'is required', 'zh-CN': '不能为空' },
  'field.number': { 'en-US': 'must be a number', 'zh-CN': '必须是数字' },
  'field.file': { 'en-US': 'must be a file sent as a multipart/form-data part', 'zh-CN': '须为以 multipart/form-data 方式上传的文件' },
  'field.nul': { 'en-US': 'must not contain the NUL character (U+0000)', 'zh-CN': '不能包含空字符（U+0000）' },
  'field.unknown': { 'en-US': 'not a parameter this takes', 'zh-CN': '不是可用的参数' },
  'field.tooDeep': { 'en-US': 'nests more than 64 levels deep', 'zh-CN': '嵌套超过 64 层' },
  'field.username.format': {
    'en-US': '3 to 32 letters, digits or _ . @ -',
    'zh-CN': '须为 3 到 32 位字母、数字或 _ . @ -',
  },
  'field.password.tooShort': { 'en-US': 'must have at least 6 characters', 'zh-CN': '至少 6 位' },
  'field.password.tooLong': { 'en-US': 'must have at most 32 characters', 'zh-CN': '最多 32 位' },
  'field.password.lettersDigits': { 'en-US': 'only letters or digits are allowed', 'zh-CN': '只能包含字母或数字' },
  'field.phone.format': { 'en-US': 'is not a valid mobile number', 'zh-CN': '手机号格式不正确' },
  'field.smsCode.format': { 'en-US': 'must be 6 digits', 'zh-CN': '须为 6 位数字' },
  'field.email.format': { 'en-US': 'is not a valid e-mail address', 'zh-CN': '邮箱格式不正确' },
  'field.idempotencyKey': { 'en-US': 'must be 8 to 100 letters, digits or _ : . -', 'zh-CN': '须为 8 到 100 位字母、数字或 _ : . -' },
  'field.url': { 'en-US': 'is not a valid web address', 'zh-CN': '不是有效的网址' },
  'field.creditCode.format': {
    'en-US': 'is not a valid unified social credit code',
    'zh-CN': '不是有效的统一社会信用代码',
  },
  'field.resolutions.decreasing': { 'en-US': 'must be strictly decreasing', 'zh-CN': '必须严格递减' },
  'field.resolutions.positive': { 'en-US': 'must all be greater than 0', 'zh-CN': '必须全部大于 0' },
  'field.extent.order': {
    'en-US': 'must be [minX, minY, maxX, maxY] with min below max',
    'zh-CN': '须为 [minX, minY, maxX, maxY]，且最小值小于最大值',
  },
  'field.serviceUrl.required': {
    'en-US': 'is required for this service type',
    'zh-CN': '该服务类型必须填写服务地址',
  },
  'field.serviceUrl.format': { 'en-US': 'must be an http(s) URL or a path starting with /', 'zh-CN': '须为 http(s) 地址或以 / 开头的路径' },
  'field.page.tooDeep': {
    'en-US': `is past row 10,000: move on with the next, previous or last page (after, before, last)`,
    'zh-CN': '超过第 10,000 行：请用下一页、上一页或末页（after、before、last）翻页',
  },
  'field.timeZone': { 'en-US': 'must be a time zone like Asia/Shanghai', 'zh-CN': '须为时区，如 Asia/Shanghai' },
  'field.date': { 'en-US': 'must be a date like 2026-01-31', 'zh-CN': '须为日期，如 2026-01-31' },
  'field.code.format': { 'en-US': '1 to 40 letters, digits, _ or -', 'zh-CN': '须为 1 到 40 位字母、数字、_ 或 -' },
  'field.endDate.beforeStart': { 'en-US': 'must not be before the start date', 'zh-CN': '不能早于开始日期' },
  'field.geometry.position': { 'en-US': 'a position needs longitude and latitude', 'zh-CN': '坐标须包含经度和纬度' },
  'field.geometry.outOfRange': {
    'en-US': 'coordinates out of range (longitude -180..180, latitude -90..90)',
    'zh-CN': '坐标超出范围（经度 -180..180，纬度 -90..90）',
  },
  'field.geometry.line': { 'en-US': 'must be a GeoJSON LineString or MultiLineString', 'zh-CN': '须为 GeoJSON LineString 或 MultiLineString' },
  'field.geometry.area': { 'en-US': 'must be a GeoJSON Polygon or MultiPolygon', 'zh-CN': '须为 GeoJSON Polygon 或 MultiPolygon' },
  'field.geometry.lineTooShort': { 'en-US': 'a line needs at least 2 positions', 'zh-CN': '线至少需要 2 个坐标点' },
  'field.geometry.ringTooShort': { 'en-US': 'a polygon ring needs at least 4 positions', 'zh-CN': '多边形环至少需要 4 个坐标点' },
  'field.geometry.ringNotClosed': { 'en-US': 'a polygon ring must end where it starts', 'zh-CN': '多边形环的首尾坐标必须相同' },
  'conflict.projectCode': { 'en-US': 'code: another project of this enterprise has this code', 'zh-CN': 'code：本企业已有相同编号的项目' },
  'conflict.pipeId': { 'en-US': 'pipeId: another pipe of this enterprise has this id', 'zh-CN': 'pipeId：本企业已有相同编号的管段' },
  'notFound.pipe': { 'en-US': 'Pipe not found in this enterprise', 'zh-CN': '本企业中没有该管段' },
  'notFound.project': { 'en-US': 'Project not found in this enterprise', 'zh-CN': '本企业中没有该项目' },
  'mapSettings.saved': { 'en-US': 'Map settings saved', 'zh-CN': '地图设置已保存' },
  'field.tile': { 'en-US': 'z/x/y: no such tile in this grid', 'zh-CN': 'z/x/y：该切片方案中没有此切片' },
  'field.srid': { 'en-US': 'must be 4326 or 3857', 'zh-CN': '只能是 4326 或 3857' },
  'member.noAccount': { 'en-US': 'account: no user has this username or phone number', 'zh-CN': 'account：没有使用该用户名或手机号的用户' },
  'member.already': { 'en-US': 'account: {name} is already a member of this enterprise', 'zh-CN': 'account：{name} 已是本企业成员' },
  'member.added': { 'en-US': '{name} joined the enterprise', 'zh-CN': '{name} 已加入本企业' },
  'field.dateTime': { 'en-US': 'must be a date and time like 2026-01-31T08:30:00Z', 'zh-CN': '须为日期时间，如 2026-01-31T08:30:00Z' },
  'notFound.acquisition': { 'en-US': 'Acquisition not found in this enterprise', 'zh-CN': '本企业中没有该影像' },
  'notFound.poi': { 'en-US': 'POI not found in this enterprise', 'zh-CN': '本企业中没有该兴趣点' },
  'notFound.delivery': { 'en-US': 'Delivery not found in this enterprise', 'zh-CN': '本企业中没有该批次' },
  'conflict.productId': { 'en-US': 'productId: this enterprise already has an acquisition with this product id', 'zh-CN': 'productId：本企业已有相同产品编号的影像' },
  'poi.transition': {
    'en-US': 'POI {poiNo} is {status}: it cannot be {action} now',
    'zh-CN': '兴趣点 {poiNo} 当前为“{status}”，不能执行“{action}”',
  },
  'poi.assigneeNotMember': { 'en-US': 'assigneeId: not an active member of this enterprise', 'zh-CN': 'assigneeId：不是本企业的有效成员' },
  'poi.geometryType': { 'en-US': 'is a {type} where a point or polygon belongs', 'zh-CN': '是 {type}，此处需要点或多边形' },
  'import.numberRange': { 'en-US': 'must be a number from {min} to {max}', 'zh-CN': '须为 {min} 到 {max} 之间的数字' },
  'import.priorityValue': { 'en-US': '"{value}" is not a priority (high, medium, low)', 'zh-CN': '“{value}”不是优先级（高、中、低）' },
  'import.enumValue': { 'en-US': '"{value}" is not one of: {allowed}', 'zh-CN': '“{value}”不是可用的值：{allowed}' },
  'import.valueMissing': { 'en-US': 'is empty; map a field or choose a value for every row', 'zh-CN': '为空；请对应字段或为所有行选择一个值' },
  'import.mappingRequired': { 'en-US': 'mapping.{target}: choose the field that holds it', 'zh-CN': 'mapping.{target}：请选择存放该项的字段' },
  'import.duplicateProduct': { 'en-US': 'product {productId} is in the file more than once', 'zh-CN': '产品 {productId} 在文件中重复出现' },
  'import.duplicatePoi': { 'en-US': 'POI {poiNo} is in the file more than once', 'zh-CN': '兴趣点 {poiNo} 在文件中重复出现' },
  'notFound.photo': { 'en-US': 'Photo not found in this enterprise', 'zh-CN': '本企业中没有该照片' },
  'photo.tooLarge': { 'en-US': 'file: a photo may be at most {mb} MB', 'zh-CN': 'file：照片不能超过 {mb} MB' },
  'photo.type': { 'en-US': 'file: a photo must be a JPEG, PNG, WebP or HEIC image', 'zh-CN': 'file：照片须为 JPEG、PNG、WebP 或 HEIC 图片' },
  'poi.done': { 'en-US': 'Saved', 'zh-CN': '已保存' },
  'notFound.import': { 'en-US': 'Import not found in this enterprise', 'zh-CN': '本企业中没有该导入任务' },
  'upload.tooLarge': { 'en-US': 'file: larger than the upload limit of {mb} MB', 'zh-CN': 'file：超过上传上限 {mb} MB' },
  'import.format': {
    'en-US': 'file: {name} is not a GeoJSON, zipped Shapefile, KML/KMZ or CSV file',
    'zh-CN': 'file：{name} 不是 GeoJSON、Shapefile 压缩包、KML/KMZ 或 CSV 文件',
  },
  'import.badZip': { 'en-US': 'file: not a valid zip archive (damaged or cut short?)', 'zh-CN': 'file：不是有效的 zip 压缩包（文件损坏或不完整？）' },
  'import.zipTooLarge': { 'en-US': 'file: the zip unpacks to more than {mb} MB', 'zh-CN': 'file：压缩包解压后超过 {mb} MB' },
  'import.noLayer': {
    'en-US': 'file: the zip holds no Shapefile (.shp), KML, GeoJSON or CSV',
    'zh-CN': 'file：压缩包中没有 Shapefile（.shp）、KML、GeoJSON 或 CSV 文件',
  },
  'import.severalLayers': {
    'en-US': 'file: the zip holds several layers ({names}); put one layer in each zip',
    'zh-CN': 'file：压缩包中有多个图层（{names}），每个压缩包只放一个图层',
  },
  'import.shpWithoutDbf': { 'en-US': 'file: {name}.shp has no .dbf beside it', 'zh-CN': 'file：{name}.shp 缺少同名 .dbf 文件' },
  'import.unreadable': { 'en-US': 'file: cannot be read as {format}: {detail}', 'zh-CN': 'file：无法按 {format} 读取：{detail}' },
  'import.noFeatures': { 'en-US': 'file: holds no features', 'zh-CN': 'file：文件中没有要素' },
  'import.emptyFile': { 'en-US': 'file: the file is empty', 'zh-CN': 'file：文件是空的' },
  'import.lineTooLong': { 'en-US': 'file: line {row} is longer than {mb} MB (a CSV has one record a line)', 'zh-CN': 'file：第 {row} 行超过 {mb} MB（CSV 每行一条记录）' },
  'import.quota': {
    'en-US': 'file: your enterprise\'s unfinished imports hold {used} MB of the {quota} MB allowed, and this file needs {size} MB: start or leave them (an import left unstarted for an hour is removed)',
    'zh-CN': 'file：本企业未完成的导入已占用 {used} MB（上限 {quota} MB），本文件需 {size} MB：请先开始或放弃这些导入（未开始的导入一小时后自动清除）',
  },
  'import.abandoned': {
    'en-US': 'Left at the field mapping step for over an hour: the upload was removed. Upload the file again to import it',
    'zh-CN': '在字段映射步骤停留超过一小时，上传的文件已清除。如需导入请重新上传',
  },
  'import.tooManyColumns': { 'en-US': 'file: the file has {count} columns; at most {max} are read', 'zh-CN': 'file：文件有 {count} 列，最多可读取 {max} 列' },
  'import.nul': { 'en-US': 'file: record {row}, field {field} holds the NUL character (U+0000), which cannot be stored', 'zh-CN': 'file：第 {row} 条记录的字段 {field} 含空字符（U+0000），无法保存' },
  'import.nulColumn': { 'en-US': 'file: column {column} of the header holds the NUL character (U+0000)', 'zh-CN': 'file：表头第 {column} 列含空字符（U+0000）' },
  'import.doctype': { 'en-US': 'file: XML with a document type declaration (<!DOCTYPE>) is not accepted, as it can define entities; remove the declaration', 'zh-CN': 'file：不接受带文档类型声明（<!DOCTYPE>）的 XML，因其可定义实体；请删除该声明' },
  'import.notXml': { 'en-US': 'file: not a well-formed KML (XML) document (line {line})', 'zh-CN': 'file：不是格式正确的 KML（XML）文档（第 {line} 行）' },
  'import.crsRequired': {
    'en-US': 'srid: the file does not say its coordinate system (no .prj): choose one',
    'zh-CN': 'srid：文件未说明坐标系（缺少 .prj），请选择坐标系',
  },
  'import.noGeometryColumn': {
    'en-US': 'file: the CSV has neither a WKT geometry column (WKT, geometry, geom, shape) nor longitude/latitude columns',
    'zh-CN': 'file：CSV 中既没有 WKT 几何列（WKT、geometry、geom、shape），也没有经度/纬度列',
  },
  'import.srid': { 'en-US': 'not a coordinate system we can read (EPSG code)', 'zh-CN': '不支持该坐标系（EPSG 代码）' },
  'import.unknownCrs': {
    'en-US': 'the file does not say its coordinate system (no .prj): choose one in the mapping step',
    'zh-CN': '文件未说明坐标系（缺少 .prj）：请在字段匹配步骤中选择坐标系',
  },
  'import.crsUnreadable': {
    'en-US': 'the coordinate system of the file cannot be read ({name}): choose one in the mapping step',
    'zh-CN': '无法识别文件的坐标系（{name}）：请在字段匹配步骤中选择坐标系',
  },
  'import.polygonType': { 'en-US': 'is a {type} where a polygon (Polygon or MultiPolygon) belongs', 'zh-CN': '是 {type}，此处需要面（Polygon 或 MultiPolygon）' },
  'import.geometryMissing': { 'en-US': 'has no geometry', 'zh-CN': '没有几何图形' },
  'import.geometryType': {
    'en-US': 'is a {type} where a line (LineString or MultiLineString) belongs',
    'zh-CN': '是 {type}，此处需要线（LineString 或 MultiLineString）',
  },
  'import.wkt': { 'en-US': 'is not valid WKT', 'zh-CN': '不是有效的 WKT' },
  'import.coordinates': { 'en-US': 'holds a coordinate that is not a number', 'zh-CN': '含有不是数字的坐标' },
  'import.networkTypeValue': {
    'en-US': '"{value}" is not a network type (water, gas, drainage, heat, power, telecom)',
    'zh-CN': '“{value}”不是管网类型（给水、燃气、排水、热力、电力、通信）',
  },
  'import.duplicateInFile': { 'en-US': 'pipe id {pipeId} is in the file more than once', 'zh-CN': '管段编号 {pipeId} 在文件中重复出现' },
  'import.exists': {
    'en-US': 'pipe id {pipeId} is already in the network (choose "add or update" to update it)',
    'zh-CN': '管段编号 {pipeId} 已在管网中（选择“新增或更新”可更新它）',
  },
  'import.mappingField': { 'en-US': 'mapping.{target}: the file has no field "{name}"', 'zh-CN': 'mapping.{target}：文件中没有字段“{name}”' },
  'import.mappingPipeId': { 'en-US': 'mapping.pipeId: choose the field that holds the pipe id', 'zh-CN': 'mapping.pipeId：请选择存放管段编号的字段' },
  'import.notAnalysed': { 'en-US': 'This import has already been started', 'zh-CN': '该导入任务已开始' },
  'import.busy': { 'en-US': 'Another import of this enterprise is running; wait for it to finish', 'zh-CN': '本企业另一个导入任务正在进行，请等待其完成' },
  'import.started': { 'en-US': 'Import started', 'zh-CN': '导入已开始' },
  'import.interrupted': { 'en-US': 'the import was interrupted (server stopped); nothing was written', 'zh-CN': '导入被中断（服务器停止），未写入任何数据' },
  'import.internal': { 'en-US': 'the import failed unexpectedly; nothing was written', 'zh-CN': '导入意外失败，未写入任何数据' },
} as const satisfies Record<string, Record<Language, string>>;

/** Every message table: the core one and each domain's (kept apart, not merged at load: a bundle takes only what it uses). */
const TABLES = [CORE_MESSAGES, SETTLEMENT_MESSAGES, CONSTRUCTION_MESSAGES, RISK_AREA_MESSAGES, WEATHER_MESSAGES, PIPE_RISK_MESSAGES, ALERT_MESSAGES, OPEN_DATA_MESSAGES, REPORT_MESSAGES, SENSOR_MESSAGES] as const;

export type MessageKey = keyof typeof CORE_MESSAGES | keyof typeof SETTLEMENT_MESSAGES | keyof typeof CONSTRUCTION_MESSAGES | keyof typeof RISK_AREA_MESSAGES | keyof typeof WEATHER_MESSAGES | keyof typeof PIPE_RISK_MESSAGES | keyof typeof ALERT_MESSAGES | keyof typeof OPEN_DATA_MESSAGES | keyof typeof REPORT_MESSAGES | keyof typeof SENSOR_MESSAGES;

const tableOf = (key: string) => TABLES.find((table) => Object.prototype.hasOwnProperty.call(table, key)) as Record<string, Record<Language, string>> | undefined;

export function isMessageKey(key: string): key is MessageKey {
  return tableOf(key) !== undefined;
}

/** A message parameter: the same in every language, or worded per language (a status name, say). */
export type MessageParam = string | number | Record<Language, string>;

/** The message in `lang`, with {name} placeholders filled from `params`. */
export function translate(key: MessageKey, lang: Language, params: Record<string, MessageParam> = {}): string {
  const text = tableOf(key)![key][lang];
  if (!text.includes('{')) return text;
  return text.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) return `{${name}}`;
    return typeof value === 'object' ? value[lang] : String(value);
  });
}
