export { openFile, serverFileUrl as mediaHref } from '../../../lib/authorized-files';
