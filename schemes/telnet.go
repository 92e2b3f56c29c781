package schemes

import _ "locator/telnet"
